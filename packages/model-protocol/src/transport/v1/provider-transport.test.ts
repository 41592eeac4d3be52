import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { isCodecErrorV1, CodecErrorV1 } from '../../codec/v1/codec-error-v1.js';
import { isProviderTransportFailureV1, ProviderTransportFailureV1 } from './provider-transport.js';

describe('typed failures', () => {
  it('recognizes a transport failure and its stage', () => {
    const failure = new ProviderTransportFailureV1('after-send', 'timeout');
    expect(isProviderTransportFailureV1(failure)).toBe(true);
    expect(failure.stage).toBe('after-send');
  });

  it('recognizes failures made in another realm', () => {
    const marker = Symbol.for('tokenforge.provider-transport-failure.v1');
    const foreign = runInNewContext(
      `const e = new Error('x'); Object.defineProperty(e, marker, { value: true }); e.stage = 'before-send'; e.reason = 'dns-failed'; e`,
      { marker },
    );
    expect(isProviderTransportFailureV1(foreign)).toBe(true);
  });

  it('never throws and refuses look-alikes', () => {
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('boom');
        },
      },
    );
    expect(isProviderTransportFailureV1(hostile)).toBe(false);
    expect(isProviderTransportFailureV1({ stage: 'before-send', reason: 'timeout' })).toBe(false);
    expect(isProviderTransportFailureV1(null)).toBe(false);
    expect(isCodecErrorV1(hostile)).toBe(false);
    expect(isCodecErrorV1(new CodecErrorV1('malformed-json', 'bad json'))).toBe(true);
  });
});
