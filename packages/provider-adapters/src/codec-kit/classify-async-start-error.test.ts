import { CodecErrorV1, ProviderTransportFailureV1 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { classifyAsyncStartError } from './classify-async-start-error.js';
import { ProtocolViolationError } from './protocol-violation-error.js';

const metadata = { providerRequestId: 'req-1' };

describe('classifyAsyncStartError', () => {
  it('reads a before-send transport failure as not accepted and retryable', () => {
    expect(classifyAsyncStartError(new ProviderTransportFailureV1('before-send', 'timeout'), metadata)).toEqual({
      acceptance: { state: 'not-accepted' },
      responseMetadata: metadata,
      failure: { code: 'timeout', retryable: true },
    });
    expect(classifyAsyncStartError(new ProviderTransportFailureV1('before-send', 'connect-failed'), {})).toEqual({
      acceptance: { state: 'not-accepted' },
      responseMetadata: {},
      failure: { code: 'network', retryable: true },
    });
  });

  it('reads an after-send transport failure as unknown and never retryable (the job may exist)', () => {
    expect(classifyAsyncStartError(new ProviderTransportFailureV1('after-send', 'connection-lost'), metadata)).toEqual({
      acceptance: { state: 'unknown' },
      responseMetadata: metadata,
      failure: { code: 'network', retryable: false },
    });
    expect(classifyAsyncStartError(new ProviderTransportFailureV1('after-send', 'timeout'), {})).toEqual({
      acceptance: { state: 'unknown' },
      responseMetadata: {},
      failure: { code: 'timeout', retryable: false },
    });
  });

  it('reads an unreadable 2xx answer as an unknown protocol violation', () => {
    for (const error of [new CodecErrorV1('malformed-json', 'x'), new ProtocolViolationError('unexpected-event', 'x')]) {
      expect(classifyAsyncStartError(error, {})).toEqual({
        acceptance: { state: 'unknown' },
        responseMetadata: {},
        failure: { code: 'protocol-violation', retryable: false },
      });
    }
  });

  it('leaves any other error to the caller', () => {
    expect(classifyAsyncStartError(new TypeError('defect'), {})).toBeUndefined();
  });
});
