import { CodecErrorV1, ProviderTransportFailureV1 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { ProtocolViolationError } from './protocol-violation-error.js';
import { terminalForError } from './terminal-for-error.js';

describe('terminalForError', () => {
  it('maps codec errors and protocol violations to a non-retryable protocol-violation', () => {
    for (const error of [new CodecErrorV1('malformed-json', 'x'), new ProtocolViolationError('unexpected-event', 'x')]) {
      expect(terminalForError(error)).toEqual({ status: 'failed', failure: { code: 'protocol-violation', retryable: false } });
    }
  });

  it.each([
    ['connection-lost', 'truncated-stream'],
    ['timeout', 'timeout'],
    ['protocol-error', 'network'],
    ['other', 'network'],
  ] as const)('maps a %s transport failure to a retryable %s', (reason, code) => {
    expect(terminalForError(new ProviderTransportFailureV1('after-send', reason))).toEqual({
      status: 'failed',
      failure: { code, retryable: true },
    });
  });

  it('keeps usage reported before the failure', () => {
    expect(terminalForError(new CodecErrorV1('malformed-json', 'x'), { usage: { inputTokens: 3 } })).toEqual({
      status: 'failed',
      failure: { code: 'protocol-violation', retryable: false },
      usage: { inputTokens: 3 },
    });
  });

  it('reports cancelled for any error once the signal aborted', () => {
    const controller = new AbortController();
    controller.abort();
    for (const error of [new ProviderTransportFailureV1('after-send', 'aborted'), new CodecErrorV1('malformed-json', 'x'), new TypeError('x')]) {
      expect(terminalForError(error, { signal: controller.signal })).toEqual({ status: 'cancelled' });
    }
  });

  it('returns undefined for errors it does not recognize', () => {
    expect(terminalForError(new TypeError('a defect'))).toBeUndefined();
    expect(terminalForError({ code: 'malformed-json' })).toBeUndefined();
  });
});
