import { readFile } from 'node:fs/promises';
import { CertificationError } from '../certification-error.js';

/**
 * Parses a dotenv-style file: `NAME=value` lines, optional `export ` prefix, `#` comments, values optionally in single
 * or double quotes (no escapes, no interpolation). A malformed line is an error naming its line number only.
 */
export function parseEnvFile(text: string): ReadonlyMap<string, string> {
  const values = new Map<string, string>();
  text.split(/\r?\n/).forEach((line, index) => {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(trimmed);
    if (match === null) throw new CertificationError('ENV_FILE_INVALID', `env file line ${index + 1} is not NAME=value`);
    let value = match[2] as string;
    const quote = value[0];
    if ((quote === '"' || quote === "'") && value.length >= 2 && value.endsWith(quote)) value = value.slice(1, -1);
    values.set(match[1] as string, value);
  });
  return values;
}

/** Reads and parses an env file. @throws {CertificationError} `ENV_FILE_UNREADABLE` or `ENV_FILE_INVALID` */
export async function readEnvFile(path: string): Promise<ReadonlyMap<string, string>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new CertificationError('ENV_FILE_UNREADABLE', 'the env file cannot be read');
  }
  return parseEnvFile(text);
}
