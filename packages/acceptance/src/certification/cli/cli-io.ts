import { readFile } from 'node:fs/promises';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CertificationError, isCertificationError } from '../certification-error.js';

/** The option declarations of a CLI. */
export type CliOptionsConfig = NonNullable<ParseArgsConfig['options']>;

/** What {@link parseCliArguments} returns for these declarations. */
export type ParsedCliArguments<T extends CliOptionsConfig, P extends boolean> = ReturnType<typeof parseArgs<{ args: string[]; strict: true; allowPositionals: P; options: T }>>;

/** Where a CLI writes. Tests pass collecting functions. */
export interface CliIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

/** The process's stdout and stderr. */
export const processIo: CliIo = {
  out: (line) => void process.stdout.write(`${line}\n`),
  err: (line) => void process.stderr.write(`${line}\n`),
};

/** Reads and parses a JSON file; errors name the role of the file, never its content. */
export async function readJsonFile(path: string, role: 'manifest' | 'evidence'): Promise<unknown> {
  const code = role === 'manifest' ? 'MANIFEST_UNREADABLE' : 'EVIDENCE_UNREADABLE';
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new CertificationError(code, `the ${role} file cannot be read`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new CertificationError(code, `the ${role} file is not JSON`);
  }
}

/** Exit status of a refusal or usage error. */
export const EXIT_REFUSED = 2;

/**
 * Runs a CLI body: a {@link CertificationError} prints `refused [CODE]: message` and exits 2; anything else prints
 * only its class name (a message could hold provider text) and exits 3.
 */
export async function runCli(io: CliIo, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (error) {
    if (isCertificationError(error)) {
      io.err(`refused [${error.code}]: ${error.message}`);
      return EXIT_REFUSED;
    }
    io.err(`failed: unexpected ${error instanceof Error ? error.name : typeof error}`);
    return 3;
  }
}

/** The command-line arguments after the script, without a leading `--` that pnpm passes through. */
export function cliArguments(): string[] {
  const argv = process.argv.slice(2);
  return argv[0] === '--' ? argv.slice(1) : argv;
}

/**
 * Parses a CLI's arguments strictly (every option declared, each with its value); an unknown option or a missing
 * value is a `USAGE_INVALID` refusal that points at `--help`.
 */
export function parseCliArguments<T extends CliOptionsConfig, P extends boolean = false>(argv: readonly string[], options: T, allowPositionals?: P): ParsedCliArguments<T, P> {
  try {
    return parseArgs<{ args: string[]; strict: true; allowPositionals: P; options: T }>({
      args: [...argv],
      strict: true,
      allowPositionals: (allowPositionals ?? false) as P,
      options,
    });
  } catch {
    throw new CertificationError('USAGE_INVALID', 'unknown option or missing value (see --help)');
  }
}
