import type { ProviderTransportResponse } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { readJsonResponse } from './json-response.js';
import { bytesOf, trackedBody, type TrackedBody } from './test-support/byte-streams.js';

function response(status: number, chunks: Uint8Array[], headers: Record<string, string> = {}): ProviderTransportResponse & { body: TrackedBody } {
  return { status, headers, body: trackedBody(chunks) };
}

describe('readJsonResponse', () => {
  it('parses a 2xx body with the safe parser', async () => {
    const answer = response(200, [bytesOf('{"id":'), bytesOf('"x"}')]);
    expect(await readJsonResponse(answer, { nowMs: 0 })).toEqual({ ok: true, status: 200, value: { id: 'x' } });
    expect(answer.body.released).toBe(true);
  });

  it('throws the codec error of a 2xx body that is not safe JSON, after releasing it', async () => {
    const answer = response(200, [bytesOf('{"a":1'), bytesOf('0000000000')]);
    await expect(readJsonResponse(answer, { nowMs: 0, maxBytes: 8 })).rejects.toMatchObject({ code: 'body-too-large' });
    expect(answer.body.returnCalls).toBe(1);
    await expect(readJsonResponse(response(201, [bytesOf('{"__proto__":1}')]), { nowMs: 0 })).rejects.toMatchObject({ code: 'forbidden-key' });
  });

  it('returns the status failure, its retry hint and the parsed error body for other statuses', async () => {
    const answer = response(429, [bytesOf('{"error":{"type":"rate_limit_error"}}')], { 'retry-after': '2' });
    expect(await readJsonResponse(answer, { nowMs: 0 })).toEqual({
      ok: false,
      status: 429,
      failure: { code: 'rate-limited', retryable: true, retryAfterMs: 2000 },
      errorBody: { error: { type: 'rate_limit_error' } },
    });
  });

  it('keeps the status failure when the error body is empty, not JSON, or too large', async () => {
    for (const chunks of [[], [bytesOf('<html>Bad Gateway</html>')], [new Uint8Array(64)]]) {
      const answer = response(502, chunks);
      expect(await readJsonResponse(answer, { nowMs: 0, maxErrorBytes: 32 })).toEqual({
        ok: false,
        status: 502,
        failure: { code: 'provider-error', retryable: true },
        errorBody: undefined,
      });
      expect(answer.body.released).toBe(true);
    }
  });
});
