import { readFileSync } from 'node:fs';

type Environment = Readonly<Record<string, string | undefined>>;

/** A secret read, or why it could not be. */
export type SecretRead = { readonly value: string } | { readonly problem: string };

/**
 * The secret the environment variable `name` holds, or, when `name` is unset or empty, the content of the file
 * `${name}_FILE` names (as container platforms mount secrets; one trailing line break is dropped). Never returns
 * the value in a problem.
 */
export function readSecret(env: Environment, name: string): SecretRead | undefined {
  const direct = env[name];
  if (direct !== undefined && direct.length > 0) return { value: direct };
  const file = env[`${name}_FILE`];
  if (file === undefined || file.length === 0) return undefined;
  try {
    return { value: readFileSync(file, 'utf8').replace(/\r?\n$/, '') };
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : 'unreadable';
    return { problem: `the file named by ${name}_FILE cannot be read (${code})` };
  }
}
