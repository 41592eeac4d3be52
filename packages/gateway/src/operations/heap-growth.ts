import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what the last full collection kept, in percent, unless the operator
 * says otherwise (`--heap-growth` or `TOKENFORGE_HEAP_GROWTH_PERCENT`): the next full collection starts at 1.5x the
 * live heap. V8's own choice ranges up to 4x on a machine with a large heap limit, which a proxy's request garbage
 * (short-lived, but promoted while its request is in flight) fills before anything is collected. Measured with
 * `npx --yes pnpm@12.4.2 bench:gateway`: about a quarter less peak memory under load at no CPU cost the bench can
 * tell apart from its noise (docs/benchmarks.md).
 */
export const DEFAULT_HEAP_GROWTH_PERCENT = 50;

/** The environment variable that sets the growth when the CLI is not given `--heap-growth`. */
export const HEAP_GROWTH_ENV = 'TOKENFORGE_HEAP_GROWTH_PERCENT';

/**
 * The heap growth a value asks for: a whole number of percent from 10 to 300, or 0 for V8's own heuristic.
 * Throws with the reason otherwise.
 */
export function parseHeapGrowthPercent(value: string, source: string): number {
  const percent = /^\d{1,3}$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (percent === 0 || (percent >= 10 && percent <= 300)) return percent;
  throw new Error(`${source} takes a whole number of percent from 10 to 300, or 0 for V8's own heap growth (got ${JSON.stringify(value)})`);
}

/**
 * The growth the CLI applies: `--heap-growth` when given, else the environment variable, else the default.
 */
export function heapGrowthPercentFrom(argument: string | undefined, env: Readonly<Record<string, string | undefined>>): number {
  if (argument !== undefined) return parseHeapGrowthPercent(argument, '--heap-growth');
  const fromEnv = env[HEAP_GROWTH_ENV];
  if (fromEnv !== undefined && fromEnv.length > 0) return parseHeapGrowthPercent(fromEnv, HEAP_GROWTH_ENV);
  return DEFAULT_HEAP_GROWTH_PERCENT;
}

/**
 * Sets V8's old-generation growth factor for this process (`--heap-growing-percent`, read by V8 at every full
 * collection, so setting it at start-up takes effect for the whole run). 0 leaves V8's heuristic alone. Process-wide:
 * only the CLI, which owns its process, calls it; `startGateway` embedded in another program never does.
 */
export function applyHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
