import { describe, expect, it } from 'vitest';
import { clientKeyDigest } from '../http/client-key-digest.js';
import { CLIENT_KEY_REFUSAL } from '../pipeline/gateway-refusal.js';
import type { RuntimeClientKey } from '../runtime/resolve-catalogue.js';
import { authenticateStage } from './authenticate-stage.js';

const configured = (id: string, value: string): RuntimeClientKey => {
  const key = new TextEncoder().encode(value);
  return { id, key, digest: clientKeyDigest(key) };
};
const clientKeys = [configured('team-a', 'key-a-0123456789'), configured('team-b', 'key-b-abcdefghij')];
const request = (headers: Record<string, string>, query = ''): Request => new Request(`http://gateway.test/v1/x${query}`, { headers });

describe('authenticateStage', () => {
  it('names the client whose key the request presents where its dialect puts it', async () => {
    expect(await authenticateStage({ request: request({ authorization: 'Bearer key-b-abcdefghij' }), placement: 'bearer', clientKeys })).toEqual({
      kind: 'continue',
      value: { clientId: 'team-b' },
    });
    expect(await authenticateStage({ request: request({ 'x-api-key': 'key-a-0123456789' }), placement: 'anthropic', clientKeys })).toEqual({
      kind: 'continue',
      value: { clientId: 'team-a' },
    });
    expect(await authenticateStage({ request: request({}, '?key=key-a-0123456789'), placement: 'gemini', clientKeys })).toEqual({
      kind: 'continue',
      value: { clientId: 'team-a' },
    });
  });

  it('refuses a wrong key, a key in another dialect’s place, and no key, with the client-key refusal', async () => {
    const refused = { kind: 'refuse', refusal: CLIENT_KEY_REFUSAL };
    expect(await authenticateStage({ request: request({ authorization: 'Bearer key-a-012345678' }), placement: 'bearer', clientKeys })).toEqual(refused);
    expect(await authenticateStage({ request: request({ 'x-api-key': 'key-a-0123456789' }), placement: 'bearer', clientKeys })).toEqual(refused);
    expect(await authenticateStage({ request: request({}, '?key=key-a-0123456789'), placement: 'bearer', clientKeys })).toEqual(refused);
    expect(await authenticateStage({ request: request({}), placement: 'gemini', clientKeys })).toEqual(refused);
  });
});
