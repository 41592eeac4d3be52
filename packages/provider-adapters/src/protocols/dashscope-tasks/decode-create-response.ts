import type { ProviderAsyncJobStartOutcomeV1, ProviderResponseMetadata } from '@tokenforge/model-protocol';
import type { JsonResponseOutcome } from '../../codec-kit/index.js';
import { mapDashScopeError } from './map-error.js';
import { readDashScopeError, readDashScopeRequestId, readDashScopeTask } from './wire-readers.js';

/** Input of {@link decodeDashScopeCreateResponse}. */
export interface DashScopeCreateResponseInput {
  /** The read answer (status and parsed body). */
  readonly outcome: JsonResponseOutcome;
  /** Response headers, lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** Current time in epoch milliseconds (retry hints). */
  readonly nowMs: number;
}

const TASK_ID = /^[\x21-\x7e]{1,256}$/;

/**
 * Decides what a DashScope create answer means for the job (the rows of the README's start table):
 *
 * - 2xx with a string `output.task_id`: `accepted` (the task id is the job id);
 * - 2xx without one (an error `code` on HTTP 200, a body that is not a task, an empty or unreadable body):
 *   `unknown`, never retryable (a task may exist that we cannot name), mapped from `code` when there is one, else
 *   `protocol-violation`;
 * - 4xx with a `{code}` refusal body: `not-accepted`, mapped by `mapDashScopeError`;
 * - 4xx without a readable code, 5xx, or any other status: `unknown`, never retryable.
 */
export function decodeDashScopeCreateResponse(input: DashScopeCreateResponseInput): ProviderAsyncJobStartOutcomeV1 {
  const { outcome, headers, nowMs } = input;
  const body = outcome.ok ? outcome.value : outcome.errorBody;
  const requestId = readDashScopeRequestId(body);
  const responseMetadata: ProviderResponseMetadata = requestId === undefined ? {} : { providerRequestId: requestId };
  const error = readDashScopeError(body);
  if (outcome.ok) {
    let taskId: string | undefined;
    try {
      taskId = readDashScopeTask(body).taskId;
    } catch {
      taskId = undefined;
    }
    if (taskId !== undefined && TASK_ID.test(taskId)) return { acceptance: { state: 'accepted' }, responseMetadata, providerJobId: taskId };
    const failure =
      error?.code === undefined
        ? ({ code: 'protocol-violation', retryable: false } as const)
        : { ...mapDashScopeError({ status: outcome.status, headers, code: error.code, nowMs }), retryable: false };
    return { acceptance: { state: 'unknown' }, responseMetadata, failure };
  }
  const failure = mapDashScopeError({ status: outcome.status, headers, code: error?.code, nowMs });
  if (outcome.status >= 400 && outcome.status <= 499 && error?.code !== undefined) {
    return { acceptance: { state: 'not-accepted' }, responseMetadata, failure };
  }
  return { acceptance: { state: 'unknown' }, responseMetadata, failure: { ...failure, retryable: false } };
}
