/**
 * The node flags of `npx --yes pnpm@12.4.2 gateway` (the root package.json's `gateway` script): the gateway
 * benchmark starts our gateway with the same flags, as an operator's command does.
 */
import { readFileSync } from 'node:fs';

/** The flags between `node` and the script in a `node [flags] script [args]` command. */
export function nodeFlagsOf(command: string): string[] {
  const words = command.trim().split(/\s+/);
  if (words[0] !== 'node') throw new Error(`not a node command: ${command}`);
  const flags: string[] = [];
  for (const word of words.slice(1)) {
    if (!word.startsWith('-')) break;
    flags.push(word);
  }
  return flags;
}

/** The node flags of the `gateway` script in the package.json at `packageJsonPath`. */
export function gatewayScriptNodeFlags(packageJsonPath: string): string[] {
  const manifest = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as { scripts?: Record<string, string> };
  const script = manifest.scripts?.gateway;
  if (script === undefined) throw new Error(`${packageJsonPath} has no gateway script`);
  return nodeFlagsOf(script);
}
