import { diagnosticForError, reportDiagnostic, type DiagnosticReport } from '../../codec-kit/diagnostic-for-error.js';
import type { AdapterTerminalOutcome, NormalizedProviderFailureV1, UsageV1 } from '@tokenforge/model-protocol';
import { isCodecErrorV1 } from '@tokenforge/model-protocol';
import { isProtocolViolationError, ProtocolViolationError } from '../../codec-kit/index.js';
import { convertOpenAiEmbeddingsUsage } from './convert-usage.js';
import { decodeOpenAiEmbeddingsVector } from './decode-vector.js';
import { OPENAI_EMBEDDINGS_WIRE, readOpenAiEmbeddingsResponse } from './wire-readers.js';

/** What the decoder checks the body against (from the task and the target's embedding space). */
export interface OpenAiEmbeddingsExpectation {
  /** How many inputs were sent: the body must hold exactly one vector for each. */
  readonly inputCount: number;
  /**
   * The length every vector must have: the task's `dimensions`, else the space's `defaultDimensions`. Absent
   * (a target without an embedding space, which the engine refuses): the first vector's length, shared by all.
   */
  readonly dimensions?: number;
  /** The target's embedding space id, copied into the result. */
  readonly spaceId?: string;
}

/** What a success body decodes to. */
export interface OpenAiEmbeddingsDecodedResponse {
  /** The terminal outcome (a protocol violation is a failed terminal, never a throw). */
  readonly terminal: AdapterTerminalOutcome;
  /** The `model` the server reported, when non-empty (for response metadata). */
  readonly providerModel?: string;
}

const PROTOCOL_VIOLATION_FAILURE: NormalizedProviderFailureV1 = Object.freeze({ code: 'protocol-violation', retryable: false });
const MAX_DIMENSIONS = 65_536;

const { violation } = OPENAI_EMBEDDINGS_WIRE;

function firstDimension(embedding: string | readonly unknown[]): number {
  // Base64: 4 characters carry 3 bytes; the kit checks the exact byte length against this.
  if (typeof embedding !== 'string') return embedding.length;
  const padding = embedding.endsWith('==') ? 2 : embedding.endsWith('=') ? 1 : 0;
  return Math.floor(((embedding.length / 4) * 3 - padding) / 4);
}

function decode(body: unknown, expectation: OpenAiEmbeddingsExpectation): OpenAiEmbeddingsDecodedResponse {
  const response = readOpenAiEmbeddingsResponse(body);
  const { inputCount } = expectation;
  if (response.data.length !== inputCount) throw violation(`data has ${response.data.length} vectors for ${inputCount} inputs`);
  const first = response.data[0];
  const dimensions = expectation.dimensions ?? (first === undefined ? 0 : firstDimension(first.embedding));
  if (dimensions < 1 || dimensions > MAX_DIMENSIONS) throw violation('vectors have no valid dimension');
  // Placed by `index`, never by array position (servers may answer out of order). With as many items as inputs,
  // refusing out-of-range and repeated indexes also rules out gaps.
  const vectors = new Array<Float32Array | undefined>(inputCount).fill(undefined);
  for (let position = 0; position < inputCount; position += 1) {
    const item = response.data[position] as (typeof response.data)[number];
    if (item.index >= inputCount) throw violation(`data.${position}.index is outside the inputs`);
    if (vectors[item.index] !== undefined) throw violation(`data.${position}.index repeats`);
    vectors[item.index] = decodeOpenAiEmbeddingsVector(item.embedding, dimensions, `data.${position}.embedding`);
  }
  const usage: UsageV1 | undefined = convertOpenAiEmbeddingsUsage(response.usage);
  if (usage?.totalTokens !== undefined && usage.inputTokens !== undefined && usage.totalTokens < usage.inputTokens) {
    throw new ProtocolViolationError('usage-inconsistent', 'openai-embeddings usage total is below the prompt tokens');
  }
  const terminal: AdapterTerminalOutcome = {
    status: 'completed',
    result: {
      kind: 'embedding',
      // Every slot was filled: the kit and the array copy allocate plain ArrayBuffers.
      vectors: vectors as Float32Array<ArrayBuffer>[],
      dimensions,
      ...(expectation.spaceId === undefined ? {} : { spaceId: expectation.spaceId }),
    },
    ...(usage === undefined ? {} : { usage }),
  };
  return { terminal, ...(response.model === undefined ? {} : { providerModel: response.model.slice(0, 256) }) };
}

/**
 * Decodes a parsed `CreateEmbeddingResponse` into a completed embedding terminal: one `Float32Array` per input in
 * input order (placed by `data[].index`; an index out of range or repeated is refused), every vector of the
 * expected dimensions, base64 or float arrays alike (see `decodeOpenAiEmbeddingsVector`), the space id from the
 * target, and usage by `convertOpenAiEmbeddingsUsage`. Anything that breaks these rules is a failed
 * `protocol-violation` terminal, never a throw.
 */
export function decodeOpenAiEmbeddingsResponse(
  body: unknown,
  expectation: OpenAiEmbeddingsExpectation,
  report?: DiagnosticReport,
): OpenAiEmbeddingsDecodedResponse {
  try {
    return decode(body, expectation);
  } catch (error) {
    if (isProtocolViolationError(error) || isCodecErrorV1(error)) {
      reportDiagnostic(report, diagnosticForError(error, 'protocol-violation'));
      return { terminal: { status: 'failed', failure: PROTOCOL_VIOLATION_FAILURE } };
    }
    throw error;
  }
}
