import type { ProviderAsyncJobStartOutcomeV1, ProviderResponseMetadata } from '@tokenforge/model-protocol';
import type { JsonResponseOutcome } from '../../codec-kit/index.js';
import { encodeKlingJobId, isKlingTaskId } from './job-id.js';
import type { KlingVideoEndpoint } from './kling-endpoint.js';
import { mapKlingError } from './map-error.js';
import { readKlingEnvelope, readKlingTask, type KlingWireEnvelope } from './wire-readers.js';

/** Input of {@link decodeKlingCreateResponse}. */
export interface KlingCreateResponseInput {
  /** The read answer (status and parsed body). */
  readonly outcome: JsonResponseOutcome;
  /** Response headers, lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The endpoint the create went to. */
  readonly endpoint: KlingVideoEndpoint;
  /** Current time in epoch milliseconds (retry hints). */
  readonly nowMs: number;
}

function envelopeOf(value: unknown): KlingWireEnvelope | undefined {
  try {
    return readKlingEnvelope(value);
  } catch {
    return undefined;
  }
}

function metadataOf(envelope: KlingWireEnvelope | undefined): ProviderResponseMetadata {
  return envelope?.requestId === undefined ? {} : { providerRequestId: envelope.requestId };
}

/**
 * Decides what a Kling create answer means for the job (the rows of the README's start table):
 *
 * - 2xx, `code` 0 and a string `data.task_id`: `accepted`, job id `<endpoint>:<task_id>`;
 * - 2xx, `code` 0 but no usable task id (missing, a JSON number, too long), or a body that is not an envelope:
 *   `unknown` / `protocol-violation` (the provider may have created a job we cannot name);
 * - an envelope with `code != 0` (HTTP 200 or 4xx) from the 1xxx families: a definitive refusal, `not-accepted`,
 *   mapped by `mapKlingError`;
 * - an envelope with a 5xxx code, any HTTP 5xx, any status outside 2xx/4xx, or a 4xx without a readable envelope:
 *   `unknown` with the mapped failure, never retryable.
 */
export function decodeKlingCreateResponse(input: KlingCreateResponseInput): ProviderAsyncJobStartOutcomeV1 {
  const { outcome, headers, nowMs } = input;
  const body = outcome.ok ? outcome.value : outcome.errorBody;
  const envelope = envelopeOf(body);
  const responseMetadata = metadataOf(envelope);
  if (outcome.ok && envelope?.code === 0) {
    let taskId: string | undefined;
    try {
      taskId = readKlingTask(envelope.data).taskId;
    } catch {
      taskId = undefined;
    }
    if (taskId !== undefined && isKlingTaskId(taskId)) {
      return { acceptance: { state: 'accepted' }, responseMetadata, providerJobId: encodeKlingJobId({ endpoint: input.endpoint, taskId }) };
    }
    return { acceptance: { state: 'unknown' }, responseMetadata, failure: { code: 'protocol-violation', retryable: false } };
  }
  if (outcome.ok && envelope === undefined) {
    return { acceptance: { state: 'unknown' }, responseMetadata, failure: { code: 'protocol-violation', retryable: false } };
  }
  const code = envelope?.code;
  const failure = mapKlingError({ status: outcome.status, headers, code, nowMs });
  const status = outcome.status;
  const refusal =
    code !== undefined && code !== 0 && code < 5000 && ((status >= 200 && status <= 299) || (status >= 400 && status <= 499));
  if (refusal) return { acceptance: { state: 'not-accepted' }, responseMetadata, failure };
  return { acceptance: { state: 'unknown' }, responseMetadata, failure: { ...failure, retryable: false } };
}
