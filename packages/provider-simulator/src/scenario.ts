/**
 * What the simulator should answer to one request. Chosen per request by the `x-simulator-scenario` header or, when
 * the header is absent, by the model name (so a host that can only set a model can still pick one). A model name
 * that is not a scenario gets the default (`text` for sync families, `job` for async ones).
 *
 * The grammar uses only characters that fit every provider's model field (Gemini puts the model in the path):
 * `kind` or `kind.arg.arg`, for example `text.2000`, `error.429.3`, `slow-first-byte.200`, `job.50.100`,
 * `recorded.vercel-ai__openai-text`.
 */
export type SimulatorScenario =
  /** `text[.chunks]`: a text answer in `chunks` stream deltas (default 3). */
  | { readonly kind: 'text'; readonly chunks: number }
  /** `tool-call`: one call of `get_weather` with `{"city":"Paris"}`. */
  | { readonly kind: 'tool-call' }
  /**
   * `scripted[.toolName]`: the scripted model. A request that declares tools gets a call of `toolName` (default: the
   * first declared tool); once the conversation ends with that tool's result, the answer is text. See `scripted/`.
   */
  | { readonly kind: 'scripted'; readonly tool: string | undefined }
  /**
   * `structured[.bad]`: a JSON answer to a structured-output request, an instance of the schema the request carries:
   * as text when the schema is in the dialect's JSON-schema field or (JSON-object mode) on the last line of a system
   * text that starts with `{`, as a call of the forced tool when the request forces one. `.bad` answers JSON that
   * breaks the schema (`{}` for an object schema with required properties, else `[]`). See `scripted/`.
   */
  | { readonly kind: 'structured'; readonly bad: boolean }
  /** `reasoning`: a reasoning block (with a signature where the dialect carries one), then text. */
  | { readonly kind: 'reasoning' }
  /** `error.status[.retryAfterSeconds]`: the provider's error envelope with this HTTP status. */
  | { readonly kind: 'error'; readonly status: number; readonly retryAfterSeconds: number | undefined }
  /** `mid-stream-error`: HTTP 200, some deltas, then the dialect's in-stream error. Sync requests get a 500. */
  | { readonly kind: 'mid-stream-error' }
  /** `truncated`: the body ends before the dialect's terminal marker (sync: a JSON body cut in half). */
  | { readonly kind: 'truncated' }
  /** `slow-first-byte.ms`: wait before sending the response head, then a normal text answer. */
  | { readonly kind: 'slow-first-byte'; readonly delayMs: number }
  /** `stall[.ms]`: send the head and part of the body, then nothing for `ms` (default: until the client leaves). */
  | { readonly kind: 'stall'; readonly stallMs: number | undefined }
  /** `recorded.name`: a file from the family's `__fixtures__` folder (`name.chunks.txt` for streams, `name.json` else). */
  | { readonly kind: 'recorded'; readonly name: string }
  /** `job[.queuedMs.runningMs]`: an async job that succeeds (timings default to the simulator's options). */
  | { readonly kind: 'job'; readonly queuedMs: number | undefined; readonly runningMs: number | undefined }
  /** `job-fail[.queuedMs.runningMs]`: an async job that fails. */
  | { readonly kind: 'job-fail'; readonly queuedMs: number | undefined; readonly runningMs: number | undefined };

/** The scenario kinds, for help texts. */
export const SIMULATOR_SCENARIO_KINDS = [
  'text',
  'tool-call',
  'scripted',
  'structured',
  'reasoning',
  'error',
  'mid-stream-error',
  'truncated',
  'slow-first-byte',
  'stall',
  'recorded',
  'job',
  'job-fail',
] as const;

const MAX_CHUNKS = 100_000;
const MAX_DELAY_MS = 600_000;

function integer(value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined || !/^\d{1,9}$/.test(value)) return undefined;
  const parsed = Number(value);
  return parsed >= min && parsed <= max ? parsed : undefined;
}

/**
 * Parses a scenario string; `undefined` when it is not one (for a model name: use the default). A known kind with
 * malformed arguments is also `undefined`, so a typo falls back to the default rather than to a different scenario.
 */
export function parseSimulatorScenario(value: string): SimulatorScenario | undefined {
  const [kind, ...args] = value.split('.');
  switch (kind) {
    case 'text': {
      if (args.length === 0) return { kind: 'text', chunks: 3 };
      const chunks = args.length === 1 ? integer(args[0], 1, MAX_CHUNKS) : undefined;
      return chunks === undefined ? undefined : { kind: 'text', chunks };
    }
    case 'tool-call':
    case 'reasoning':
    case 'mid-stream-error':
    case 'truncated':
      return args.length === 0 ? { kind } : undefined;
    case 'structured':
      if (args.length === 0) return { kind: 'structured', bad: false };
      return args.length === 1 && args[0] === 'bad' ? { kind: 'structured', bad: true } : undefined;
    case 'scripted': {
      if (args.length === 0) return { kind: 'scripted', tool: undefined };
      const tool = args.join('.');
      return /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/.test(tool) ? { kind: 'scripted', tool } : undefined;
    }
    case 'error': {
      const status = integer(args[0], 400, 599);
      if (status === undefined || args.length > 2) return undefined;
      const retryAfterSeconds = args.length === 2 ? integer(args[1], 0, 3600) : undefined;
      if (args.length === 2 && retryAfterSeconds === undefined) return undefined;
      return { kind: 'error', status, retryAfterSeconds };
    }
    case 'slow-first-byte': {
      const delayMs = args.length === 1 ? integer(args[0], 0, MAX_DELAY_MS) : undefined;
      return delayMs === undefined ? undefined : { kind: 'slow-first-byte', delayMs };
    }
    case 'stall': {
      if (args.length === 0) return { kind: 'stall', stallMs: undefined };
      const stallMs = args.length === 1 ? integer(args[0], 0, MAX_DELAY_MS) : undefined;
      return stallMs === undefined ? undefined : { kind: 'stall', stallMs };
    }
    case 'recorded': {
      const name = args.join('.');
      return /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/.test(name) && !name.includes('..') ? { kind: 'recorded', name } : undefined;
    }
    case 'job':
    case 'job-fail': {
      if (args.length === 0) return { kind, queuedMs: undefined, runningMs: undefined };
      const queuedMs = integer(args[0], 0, MAX_DELAY_MS);
      const runningMs = integer(args[1], 0, MAX_DELAY_MS);
      return args.length === 2 && queuedMs !== undefined && runningMs !== undefined ? { kind, queuedMs, runningMs } : undefined;
    }
    default:
      return undefined;
  }
}

/** The header that selects a scenario, overriding the model name. */
export const SIMULATOR_SCENARIO_HEADER = 'x-simulator-scenario';
