import { describe, expect, it } from 'vitest';
import { clientKeyDigest } from '../http/client-key-digest.js';
import { CLIENT_KEY_REFUSAL } from '../pipeline/gateway-refusal.js';
import type { RuntimeClientKey } from '../runtime/resolve-catalogue.js';
import { PIPELINE_CLIENT_KEY, pipelineGateway } from '../test-support/pipeline-gateway.js';
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

describe('the key check of every route', () => {
  const { app } = pipelineGateway();
  const get = (path: string, headers: Record<string, string>): Promise<Response> => Promise.resolve(app.request(`http://gateway.test${path}`, { headers }));

  it('lists models only for a matching key, in the place each dialect’s SDK puts it', async () => {
    expect((await get('/v1/models', { authorization: `Bearer ${PIPELINE_CLIENT_KEY}` })).status).toBe(200);
    expect((await get('/v1/models', { 'x-api-key': PIPELINE_CLIENT_KEY, 'anthropic-version': '2023-06-01' })).status).toBe(200);
    expect((await get(`/v1beta/models?key=${PIPELINE_CLIENT_KEY}`, {})).status).toBe(200);
    const openai = await get('/v1/models', { authorization: 'Bearer wrong-key-0123456789' });
    expect([openai.status, await openai.json()]).toEqual([401, expect.objectContaining({ error: expect.objectContaining({ code: 'invalid_api_key' }) })]);
    const anthropic = await get('/v1/models', { 'x-api-key': 'wrong-key-0123456789' });
    expect([anthropic.status, await anthropic.json()]).toEqual([401, expect.objectContaining({ type: 'error', request_id: 'unauthenticated' })]);
    expect((await get('/v1beta/models', { authorization: `Bearer ${PIPELINE_CLIENT_KEY}` })).status).toBe(401);
  });

  it('lets a matching bearer key past the jobs API’s key check and refuses any other key first', async () => {
    const jobs = await get('/v1/jobs?model=m', { authorization: `Bearer ${PIPELINE_CLIENT_KEY}` });
    expect([jobs.status, await jobs.json()]).toEqual([404, expect.objectContaining({ error: expect.objectContaining({ code: 'jobs-disabled' }) })]);
    const refused = await get('/v1/jobs?model=m', { authorization: 'Bearer wrong-key-0123456789' });
    expect([refused.status, await refused.json()]).toEqual([401, expect.objectContaining({ error: expect.objectContaining({ code: 'invalid-client-key' }) })]);
    expect((await get('/v1/jobs?model=m', { 'x-api-key': PIPELINE_CLIENT_KEY })).status).toBe(401);
  });
});
