import { parseArgs } from 'node:util';
import { isProtocolFamily, type ProtocolFamily } from '@tokenforge/model-protocol';
import type { FixtureChunkFramingV1 } from '@tokenforge/provider-adapters';

/** What `pnpm replay` was asked to do. */
export interface ReplayArgumentsV1 {
  /** The provider family whose adapter decodes the responses. */
  readonly family: ProtocolFamily;
  /** Response files, replayed in order. */
  readonly responses: readonly string[];
  /** Where the task comes from: a client request through an ingress codec, or a task file. */
  readonly taskSource:
    | { readonly kind: 'ingress'; readonly family: ProtocolFamily; readonly requestFile: string; readonly requestPath: string }
    | { readonly kind: 'task'; readonly taskFile: string };
  /** HTTP status of every replayed response (default 200). */
  readonly status: number;
  /** Content type of every replayed response (default: guessed per file). */
  readonly contentType?: string;
  /** Treat every response file as one JSON payload per line, framed per family (implied for `*.chunks.txt`). */
  readonly chunksJsonl: boolean;
  /** Framing of chunk files (default: the family's usual framing, see the README). */
  readonly framing?: FixtureChunkFramingV1;
  /** Print the client-dialect bytes instead of JSON lines. */
  readonly egress: boolean;
  /** Async families: the operation each response after the create response answers (default `get`). */
  readonly jobOperation: 'get' | 'list';
  /** Vector dimensions of the default capability for embedding tasks without `dimensions`. */
  readonly embeddingDimensions?: number;
  /** A capability JSON file replacing the default capability. */
  readonly capabilityFile?: string;
  /** Also print every request the adapter sent. */
  readonly showRequests: boolean;
}

/** A command line that cannot run; the message says why (exit status 2). */
export class ReplayUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReplayUsageError';
  }
}

export const REPLAY_USAGE = `usage: npx --yes pnpm@12.4.2 exec tokenforge-replay --family <provider family> --response <file> [--response <file> ...]
       [--ingress <client family> --request <client-request.json> [--request-path <path>] | --task <task.json>]
       [--status N] [--content-type T] [--chunks-jsonl] [--framing openai-chat|typed-sse|gemini-sse|raw]
       [--job-operation get|list] [--embedding-dimensions N] [--capability <capability.json>]
       [--show-requests] [--egress]

exit status: 0 completed or accepted, 1 failed terminal or rejected start, 3 engine error, 2 usage error`;

const FRAMINGS: readonly FixtureChunkFramingV1[] = ['openai-chat', 'typed-sse', 'gemini-sse', 'raw'];

function family(value: string | undefined, flag: string): ProtocolFamily {
  if (value === undefined) throw new ReplayUsageError(`${flag} is required`);
  if (!isProtocolFamily(value)) throw new ReplayUsageError(`${flag} must be a protocol family such as openai-chat/v1`);
  return value;
}

function integer(value: string | undefined, flag: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new ReplayUsageError(`${flag} must be an integer from ${min} to ${max}`);
  }
  return Number(value);
}

/** Parses the replay command line. @throws {ReplayUsageError} */
export function parseReplayArguments(argv: readonly string[]): ReplayArgumentsV1 {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        family: { type: 'string' },
        response: { type: 'string', multiple: true },
        ingress: { type: 'string' },
        request: { type: 'string' },
        'request-path': { type: 'string' },
        task: { type: 'string' },
        status: { type: 'string' },
        'content-type': { type: 'string' },
        'chunks-jsonl': { type: 'boolean' },
        framing: { type: 'string' },
        egress: { type: 'boolean' },
        'job-operation': { type: 'string' },
        'embedding-dimensions': { type: 'string' },
        capability: { type: 'string' },
        'show-requests': { type: 'boolean' },
      },
    }));
  } catch (error) {
    throw new ReplayUsageError(error instanceof Error ? error.message : 'invalid arguments');
  }
  const responses = values.response ?? [];
  if (responses.length === 0) throw new ReplayUsageError('at least one --response is required');
  const hasIngress = values.ingress !== undefined || values.request !== undefined;
  if (hasIngress && values.task !== undefined) throw new ReplayUsageError('give either --ingress with --request, or --task, not both');
  if (!hasIngress && values.task === undefined) throw new ReplayUsageError('give --ingress with --request, or --task');
  if (hasIngress && values.request === undefined) throw new ReplayUsageError('--ingress needs --request');
  if (!hasIngress && values['request-path'] !== undefined) throw new ReplayUsageError('--request-path needs --ingress');
  const requestPath = values['request-path'] ?? '/';
  if (!requestPath.startsWith('/')) throw new ReplayUsageError('--request-path must start with /');
  if (values.framing !== undefined && !(FRAMINGS as readonly string[]).includes(values.framing)) {
    throw new ReplayUsageError(`--framing must be one of ${FRAMINGS.join(', ')}`);
  }
  const jobOperation = values['job-operation'] ?? 'get';
  if (jobOperation !== 'get' && jobOperation !== 'list') throw new ReplayUsageError('--job-operation must be get or list');
  const embeddingDimensions = integer(values['embedding-dimensions'], '--embedding-dimensions', 1, 65_536);
  return {
    family: family(values.family, '--family'),
    responses,
    taskSource: hasIngress
      ? { kind: 'ingress', family: family(values.ingress, '--ingress'), requestFile: values.request as string, requestPath }
      : { kind: 'task', taskFile: values.task as string },
    status: integer(values.status, '--status', 100, 599) ?? 200,
    ...(values['content-type'] === undefined ? {} : { contentType: values['content-type'] }),
    chunksJsonl: values['chunks-jsonl'] === true,
    ...(values.framing === undefined ? {} : { framing: values.framing as FixtureChunkFramingV1 }),
    egress: values.egress === true,
    jobOperation,
    ...(embeddingDimensions === undefined ? {} : { embeddingDimensions }),
    ...(values.capability === undefined ? {} : { capabilityFile: values.capability }),
    showRequests: values['show-requests'] === true,
  };
}
