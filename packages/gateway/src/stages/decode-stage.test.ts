import { CodecErrorV1, type IngressCodecV1, type IngressDecodedRequestV1 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import type { DirectDialect } from '../dialects/direct-dialect.js';
import { decodeStage } from './decode-stage.js';

const decodedFor = (modelLabel: string): IngressDecodedRequestV1 => ({ modelLabel, task: { kind: 'chat' } }) as unknown as IngressDecodedRequestV1;
const dialect = (extra: Partial<DirectDialect> = {}): DirectDialect => ({ family: 'openai-chat/v1', keyPlacement: 'bearer', errorShape: 'openai', ...extra }) as DirectDialect;
const post = (body: string): Request => new Request('http://gateway.test/v1/chat/completions?x=1', { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-secret': 's' } });

describe('decodeStage', () => {
  it('hands the ingress the wire request: path, query, body bytes and the meaningful headers', async () => {
    const seen: unknown[] = [];
    const ingress = { decodeRequest: (wire: unknown) => (seen.push(wire), decodedFor('m')) } as unknown as IngressCodecV1;
    const outcome = await decodeStage({ request: post('{"a":1}'), dialect: dialect(), ingress, maxBodyBytes: 100 });
    expect(outcome).toEqual({ kind: 'continue', value: { decoded: decodedFor('m'), bodyBytes: 7 } });
    const wire = seen[0] as { path: string; query: object; body: Uint8Array; headers: Record<string, string> };
    expect({ path: wire.path, query: wire.query, body: new TextDecoder().decode(wire.body) }).toEqual({ path: '/v1/chat/completions', query: { x: '1' }, body: '{"a":1}' });
    expect(wire.headers).toHaveProperty('content-type', 'application/json');
  });

  it('refuses a body over the limit before any decoder runs', async () => {
    const ingress = { decodeRequest: () => expect.unreachable() } as unknown as IngressCodecV1;
    expect(await decodeStage({ request: post('x'.repeat(101)), dialect: dialect(), ingress, maxBodyBytes: 100 })).toEqual({
      kind: 'refuse',
      refusal: { kind: 'egress', failure: { source: 'ingress', code: 'body-too-large' }, outcome: 'refused:body-too-large', headers: {} },
    });
  });

  it('refuses a body slower than its deadline as GATEWAY_BODY_TIMEOUT, closing the connection after the answer', async () => {
    const ingress = { decodeRequest: () => expect.unreachable() } as unknown as IngressCodecV1;
    const stalled = new Request('http://gateway.test/v1/chat/completions', { method: 'POST', body: new ReadableStream({}), duplex: 'half' } as RequestInit);
    expect(await decodeStage({ request: stalled, dialect: dialect(), ingress, maxBodyBytes: 100, bodyDeadlines: { idleMs: 20, totalMs: 1000 } })).toEqual({
      kind: 'refuse',
      refusal: { kind: 'egress', failure: { source: 'engine', code: 'GATEWAY_BODY_TIMEOUT' }, outcome: 'refused:body-timeout-idle', headers: { connection: 'close' } },
    });
  });

  it('turns a codec error into an ingress refusal with its code and path, and lets any other error through', async () => {
    const failing = (error: unknown) => ({ decodeRequest: () => { throw error; } }) as unknown as IngressCodecV1;
    expect(await decodeStage({ request: post('{}'), dialect: dialect(), ingress: failing(new CodecErrorV1('invalid-request', 'no model', { path: 'model' })), maxBodyBytes: 100 })).toEqual({
      kind: 'refuse',
      refusal: { kind: 'egress', failure: { source: 'ingress', code: 'invalid-request', param: 'model' }, outcome: 'refused:invalid-request', headers: {} },
    });
    await expect(decodeStage({ request: post('{}'), dialect: dialect(), ingress: failing(new RangeError('bug')), maxBodyBytes: 100 })).rejects.toThrow(RangeError);
  });

  it('prefers the dialect’s own decoder, then its wire decoder, over the ingress', async () => {
    const ingress = { decodeRequest: () => decodedFor('ingress') } as unknown as IngressCodecV1;
    const preparedMedia = { media: [] } as never;
    const custom = dialect({ decode: async () => ({ decoded: decodedFor('custom'), preparedMedia }), decodeWire: () => decodedFor('wire') });
    expect(await decodeStage({ request: post('{}'), dialect: custom, ingress, maxBodyBytes: 100 })).toEqual({ kind: 'continue', value: { decoded: decodedFor('custom'), preparedMedia, bodyBytes: 2 } });
    expect(await decodeStage({ request: post('{}'), dialect: dialect({ decodeWire: () => decodedFor('wire') }), ingress, maxBodyBytes: 100 })).toEqual({
      kind: 'continue',
      value: { decoded: decodedFor('wire'), bodyBytes: 2 },
    });
  });
});
