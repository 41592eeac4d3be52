import { startProviderSimulator, type ProviderSimulator } from '@tokenforge/provider-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signJobHandle } from './jobs/job-handle.js';
import { expectGatewayJobsAnswer } from './jobs/test-support/expect-gateway-jobs-answer.js';
import { startGateway, type RunningGateway } from './start-gateway.js';
import { createLogCapture, eventually } from './test-support/log-capture.js';
import { OTHER_CLIENT_KEY, simulatorCatalogue, TEST_CLIENT_KEY, TEST_SIGNING_KEY } from './test-support/simulator-catalogue.js';

let simulator: ProviderSimulator;
let gateway: RunningGateway;
const log = createLogCapture();
const KLING = 'kling-video/v1';
const DASHSCOPE = 'dashscope-tasks/v1';

beforeAll(async () => {
  simulator = await startProviderSimulator({ jobTimings: { queuedMs: 50, runningMs: 100 } });
  const { catalogue, env } = simulatorCatalogue(simulator, [
    { name: 'video', taskKind: 'video-generation', targets: [{ family: KLING, model: 'kling-v2-master' }] },
    { name: 'video-dashscope', taskKind: 'video-generation', targets: [{ family: DASHSCOPE, model: 'wan2.2-t2v-plus' }] },
    { name: 'video-fallback', taskKind: 'video-generation', targets: [{ family: KLING, model: 'error.429' }, { family: DASHSCOPE, model: 'wan2.2-t2v-plus' }] },
    { name: 'video-unknown', taskKind: 'video-generation', targets: [{ family: KLING, model: 'error.500' }, { family: DASHSCOPE, model: 'wan2.2-t2v-plus' }] },
    { name: 'video-unknown-dashscope', taskKind: 'video-generation', targets: [{ family: DASHSCOPE, model: 'error.500' }] },
  ]);
  gateway = await startGateway({ catalogue, env, logger: log });
});
afterAll(async () => {
  await gateway.close();
  await simulator.close();
});

/** Every answer is checked against the jobs API v1 schema of its route. */
async function call(method: string, path: string, body?: unknown, key = TEST_CLIENT_KEY): Promise<{ status: number; json: any }> {
  const response = await fetch(`${gateway.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const json: unknown = await response.json();
  expectGatewayJobsAnswer(method, path, response.status, json);
  return { status: response.status, json };
}

const create = (model: string, key = TEST_CLIENT_KEY) => call('POST', '/v1/jobs', { model, prompt: 'a red fox in snow', durationSeconds: 5 }, key);

describe('async jobs with signed handles', () => {
  it.each(['video', 'video-dashscope'])('%s: create, then get until it succeeds', async (model) => {
    const created = await create(model);
    expect(created.status).toBe(202);
    expect(created.json).toMatchObject({ object: 'job', model, status: 'queued' });
    expect(created.json.id).toMatch(/^tfj1\./);
    let job: any;
    for (let poll = 0; poll < 50 && job?.status !== 'succeeded'; poll += 1) {
      job = (await call('GET', `/v1/jobs/${created.json.id}`)).json;
      if (job.status !== 'succeeded') await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(job).toMatchObject({ id: created.json.id, status: 'succeeded', model });
    expect(job.media?.length).toBeGreaterThan(0);
  });

  it('a second gateway process with the same signing key serves a later get', async () => {
    const created = await create('video');
    const { catalogue, env } = simulatorCatalogue(simulator, [{ name: 'video', taskKind: 'video-generation', targets: [{ family: KLING, model: 'kling-v2-master' }] }]);
    const second = await startGateway({ catalogue, env, logger: createLogCapture() });
    try {
      const response = await fetch(`${second.url}/v1/jobs/${created.json.id}`, { headers: { authorization: `Bearer ${TEST_CLIENT_KEY}` } });
      expect(response.status).toBe(200);
      expectGatewayJobsAnswer('GET', `/v1/jobs/${created.json.id}`, response.status, await response.json());
    } finally {
      await second.close();
    }
  });

  it('refuses a forged, altered, expired or foreign handle', async () => {
    const created = await create('video');
    const [prefix, payload, signature] = created.json.id.split('.') as [string, string, string];
    const altered = `${prefix}.${Buffer.from(Buffer.from(payload, 'base64url').toString().replace('"c":"main"', '"c":"mainx"')).toString('base64url')}.${signature}`;
    expect((await call('GET', `/v1/jobs/${altered}`)).status).toBe(400);
    const forged = signJobHandle({ kind: 'job', target: 'video#0', providerJobId: '1', client: 'main', expiresAt: Date.now() / 1000 + 60 }, new TextEncoder().encode('not-the-signing-key-0123456789abcdef'));
    expect((await call('GET', `/v1/jobs/${forged}`)).status).toBe(400);
    const expired = signJobHandle({ kind: 'job', target: 'video#0', providerJobId: '1', client: 'main', expiresAt: Math.floor(Date.now() / 1000) - 1 }, new TextEncoder().encode(TEST_SIGNING_KEY));
    expect((await call('GET', `/v1/jobs/${expired}`)).json).toMatchObject({ error: { code: 'job-id-expired' } });
    expect((await call('GET', `/v1/jobs/${created.json.id}`, undefined, OTHER_CLIENT_KEY)).status).toBe(404);
    expect((await call('GET', `/v1/jobs/${created.json.id}`, undefined, 'wrong-key-0000000000')).status).toBe(401);
  });

  it('lists only the calling client’s jobs', async () => {
    const mine = await create('video');
    const theirs = await create('video', OTHER_CLIENT_KEY);
    const listed = await call('GET', '/v1/jobs?model=video');
    expect(listed.status).toBe(200);
    const keys = listed.json.data.map((job: { idempotencyKey?: string }) => job.idempotencyKey);
    expect(keys).toContain(mine.json.idempotencyKey);
    expect(keys).not.toContain(theirs.json.idempotencyKey);
    const theirList = await call('GET', '/v1/jobs?model=video', undefined, OTHER_CLIENT_KEY);
    expect(theirList.json.data.map((job: { idempotencyKey?: string }) => job.idempotencyKey)).toEqual([theirs.json.idempotencyKey]);
    // Handles minted by a list are valid for a get.
    expect((await call('GET', `/v1/jobs/${listed.json.data[0].id}`)).status).toBe(200);
  });

  it('cancels where the family can, and says so where it cannot', async () => {
    const dashScope = await create('video-dashscope');
    expect((await call('POST', `/v1/jobs/${dashScope.json.id}/cancel`)).status).toBe(200);
    const kling = await create('video');
    expect((await call('POST', `/v1/jobs/${kling.json.id}/cancel`)).json).toMatchObject({ error: { code: 'cancel-unsupported' } });
  });

  it('a create that was not accepted falls back to the next target', async () => {
    const created = await create('video-fallback');
    expect(created.status).toBe(202);
    await eventually(() => log.requests().some((entry) => entry.model === 'video-fallback'));
    const line = log.requests().findLast((entry) => entry.model === 'video-fallback') as { attempts: { family: string; outcome: string }[] };
    expect(line.attempts.map((attempt) => attempt.family)).toEqual([KLING, DASHSCOPE]);
  });

  it('a create whose acceptance is unknown is never resent, and the error says how to find the job', async () => {
    const before = simulator.requests.filter((request) => request.method === 'POST').length;
    const created = await create('video-unknown');
    expect(created.status).toBe(502);
    expect(created.json.error).toMatchObject({ code: 'job-acceptance-unknown' });
    expect(created.json.error.recover).toMatch(/^tfj1\./);
    const posts = simulator.requests.filter((request) => request.method === 'POST').slice(before);
    expect(posts).toHaveLength(1);
    const recovered = await call('GET', `/v1/jobs?recover=${created.json.error.recover}`);
    expect(recovered.status).toBe(200);
    expect((await call('GET', `/v1/jobs?recover=${created.json.error.recover}`, undefined, OTHER_CLIENT_KEY)).status).toBe(404);
  });

  it('a recovery token returns only the caller’s jobs, never another client’s job created inside the window', async () => {
    const providerJobIdOf = (handle: string): string => JSON.parse(Buffer.from(handle.split('.')[1] ?? '', 'base64url').toString()).j;
    const lost = await create('video-unknown');
    expect(lost.json.error.code).toBe('job-acceptance-unknown');
    // Both at once, right after: the recovery window ends one second after the lost create answered, and a loaded
    // machine could push a third sequential create past it.
    const [theirs, mine] = await Promise.all([create('video', OTHER_CLIENT_KEY), create('video')]);
    expect(theirs.status).toBe(202);
    expect(mine.status).toBe(202);
    const recovered = await call('GET', `/v1/jobs?recover=${lost.json.error.recover}`);
    expect(recovered.status).toBe(200);
    const ids = recovered.json.data.map((job: { id: string }) => providerJobIdOf(job.id));
    expect(ids).toContain(providerJobIdOf(mine.json.id));
    expect(ids).not.toContain(providerJobIdOf(theirs.json.id));
    expect(recovered.json.data.every((job: { idempotencyKey?: string }) => job.idempotencyKey !== undefined)).toBe(true);
  });

  it('a recovery over a family that echoes no owner tag answers recovery-unsupported, listing nothing', async () => {
    const lost = await create('video-unknown-dashscope');
    expect(lost.json.error.code).toBe('job-acceptance-unknown');
    expect(lost.json.error.message).toContain('recovery-unsupported');
    expect((await create('video-dashscope', OTHER_CLIENT_KEY)).status).toBe(202);
    const recovered = await call('GET', `/v1/jobs?recover=${lost.json.error.recover}`);
    expect(recovered.status).toBe(409);
    expect(recovered.json.error.code).toBe('recovery-unsupported');
    expect(JSON.stringify(recovered.json)).not.toMatch(/tfj1|media/);
  });

  it('refuses malformed create bodies with every problem and its path, and forwards nothing', async () => {
    const before = simulator.requests.length;
    const wrongTypes = await call('POST', '/v1/jobs', { model: 'video', prompt: 42, durationSeconds: 'five', seed: -1 });
    expect(wrongTypes.status).toBe(400);
    expect(wrongTypes.json.error).toMatchObject({ code: 'invalid-request', path: 'prompt' });
    expect(wrongTypes.json.error.issues).toEqual([
      expect.objectContaining({ path: 'prompt', reason: 'wrong-type' }),
      expect.objectContaining({ path: 'durationSeconds', reason: 'wrong-type' }),
      expect.objectContaining({ path: 'seed', reason: 'out-of-range' }),
    ]);
    const unknown = await call('POST', '/v1/jobs', { model: 'video', prompt: 'a fox', colour: 'red', extra: { nested: true } });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.issues).toEqual([
      { path: 'colour', reason: 'unknown-field', message: expect.any(String) },
      { path: 'extra', reason: 'unknown-field', message: expect.any(String) },
    ]);
    const missing = await call('POST', '/v1/jobs', { prompt: 'a fox' });
    expect(missing.status).toBe(400);
    expect(missing.json.error).toMatchObject({ code: 'invalid-request', path: 'model', issues: [{ path: 'model', reason: 'missing' }] });
    const nothingToDraw = await call('POST', '/v1/jobs', { model: 'video', durationSeconds: 5 });
    expect(nothingToDraw.json.error).toMatchObject({ code: 'invalid-request', path: 'prompt', issues: [{ path: 'prompt', reason: 'invalid-value' }] });
    const badKey = await call('POST', '/v1/jobs', { model: 'video', prompt: 'a fox', idempotencyKey: 'has spaces' });
    expect(badKey.json.error).toMatchObject({ code: 'invalid-request', path: 'idempotencyKey', issues: [{ path: 'idempotencyKey', reason: 'invalid-format' }] });
    expect((await call('POST', '/v1/jobs', '{"model":')).json.error.code).toBe('malformed-json');
    expect((await call('POST', '/v1/jobs', [1, 2])).json.error.code).toBe('malformed-json');
    expect((await call('POST', '/v1/jobs', { model: 'no-such-model', prompt: 'a fox' })).json.error.code).toBe('model-not-found');
    expect(simulator.requests.length).toBe(before);
  });

  it('a list without a model names the query parameter', async () => {
    const listed = await call('GET', '/v1/jobs');
    expect(listed.status).toBe(400);
    expect(listed.json.error).toMatchObject({ code: 'invalid-request', path: 'model', issues: [{ path: 'model', reason: 'missing' }] });
  });
});
