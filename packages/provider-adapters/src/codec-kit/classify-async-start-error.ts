import {
  isCodecErrorV1,
  isProviderTransportFailureV1,
  type ProviderAsyncJobStartOutcomeV1,
  type ProviderResponseMetadataV3,
} from '@tokenforge/model-protocol';
import { isProtocolViolationError } from './protocol-violation-error.js';

/**
 * The async start outcome an error thrown while sending a create request or reading its answer stands for, or
 * `undefined` for an error of no known kind (a defect, which the caller lets propagate):
 *
 * - a transport failure at stage `before-send`: nothing reached the provider, `not-accepted`, failure `timeout`
 *   (reason timeout) or `network`, retryable;
 * - a transport failure at stage `after-send` (lost connection, timeout or abort after the request left, or while
 *   reading the answer): the provider may have created the job, `unknown`, never retryable;
 * - a codec error or protocol violation while reading a 2xx answer (too large, not JSON): `unknown`,
 *   `protocol-violation`.
 */
export function classifyAsyncStartError(error: unknown, responseMetadata: ProviderResponseMetadataV3): ProviderAsyncJobStartOutcomeV1 | undefined {
  if (isProviderTransportFailureV1(error)) {
    const code = error.reason === 'timeout' ? 'timeout' : 'network';
    return error.stage === 'before-send'
      ? { acceptance: { state: 'not-accepted' }, responseMetadata, failure: { code, retryable: true } }
      : { acceptance: { state: 'unknown' }, responseMetadata, failure: { code, retryable: false } };
  }
  if (isCodecErrorV1(error) || isProtocolViolationError(error)) {
    return { acceptance: { state: 'unknown' }, responseMetadata, failure: { code: 'protocol-violation', retryable: false } };
  }
  return undefined;
}
