import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProviderSimulator, type ProviderSimulator } from './start-provider-simulator.js';
import { klingAuthorization, klingJwt, send } from './test-support/simulator-client.js';

let simulator: ProviderSimulator;
// A second simulator on a hand-moved clock, so job progression does not depend on how loaded the machine is.
let clock = Date.now();
let clocked: ProviderSimulator;
beforeAll(async () => {
  simulator = await startProviderSimulator({ jobTimings: { queuedMs: 150, runningMs: 150 } });
  clocked = await startProviderSimulator({ jobTimings: { queuedMs: 150, runningMs: 150 }, now: () => clock });
});
afterAll(async () => {
  await Promise.all([simulator.close(), clocked.close()]);
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const openAi = (): Record<string, string> => ({ authorization: `Bearer ${simulator.credentials.openAiApiKey}` });
const dashScope = (): Record<string, string> => ({ authorization: `Bearer ${simulator.credentials.dashScopeApiKey}` });
const chatBody = { model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'hi' }] };

describe('auth refusal in each provider envelope', () => {
  it('openai: bearer key, 401 invalid_api_key', async () => {
    const refused = await send(simulator, 'POST', '/v1/chat/completions', { authorization: 'Bearer nope' }, chatBody);
    expect(refused).toMatchObject({ status: 401, json: { error: { type: 'invalid_request_error', code: 'invalid_api_key' } } });
    expect((await send(simulator, 'POST', '/v1/chat/completions', openAi(), chatBody)).status).toBe(200);
  });

  it('anthropic: x-api-key and anthropic-version', async () => {
    const body = { model: 'claude', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] };
    const key = simulator.credentials.anthropicApiKey;
    expect(await send(simulator, 'POST', '/v1/messages', { 'x-api-key': 'nope', 'anthropic-version': '2023-06-01' }, body)).toMatchObject({
      status: 401,
      json: { type: 'error', error: { type: 'authentication_error' } },
    });
    expect(await send(simulator, 'POST', '/v1/messages', { 'x-api-key': key }, body)).toMatchObject({ status: 400, json: { error: { type: 'invalid_request_error' } } });
    expect((await send(simulator, 'POST', '/v1/messages', { 'x-api-key': key, 'anthropic-version': '2023-06-01' }, body)).status).toBe(200);
  });

  it('gemini: x-goog-api-key (or ?key=), API_KEY_INVALID and PERMISSION_DENIED', async () => {
    const body = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
    const path = '/v1beta/models/gemini-2.5-flash:generateContent';
    expect(await send(simulator, 'POST', path, { 'x-goog-api-key': 'nope' }, body)).toMatchObject({
      status: 400,
      json: { error: { status: 'INVALID_ARGUMENT', details: [{ reason: 'API_KEY_INVALID' }] } },
    });
    expect(await send(simulator, 'POST', path, {}, body)).toMatchObject({ status: 403, json: { error: { status: 'PERMISSION_DENIED' } } });
    expect((await send(simulator, 'POST', `${path}?key=${simulator.credentials.geminiApiKey}`, {}, body)).status).toBe(200);
  });

  it('cohere and dashscope: bearer keys with their own envelopes', async () => {
    expect(await send(simulator, 'POST', '/v2/rerank', { authorization: 'Bearer nope' }, {})).toMatchObject({ status: 401, json: { message: 'invalid api token' } });
    expect(await send(simulator, 'GET', '/api/v1/tasks', { authorization: 'Bearer nope' })).toMatchObject({ status: 401, json: { code: 'InvalidApiKey' } });
  });

  it('kling: HS256 JWT checked against the secret key, the issuer and exp/nbf', async () => {
    const { klingAccessKey: accessKey, klingSecretKey: secretKey } = simulator.credentials;
    const now = Math.floor(Date.now() / 1000);
    const list = (authorization?: string) => send(simulator, 'GET', '/v1/videos/text2video', authorization === undefined ? {} : { authorization });
    expect((await list()).json).toMatchObject({ code: 1001 });
    expect((await list(`Bearer ${klingJwt(accessKey, secretKey, { exp: now + 600, nbf: now - 5 }, 'other-secret')}`)).json).toMatchObject({ code: 1002 });
    expect((await list(`Bearer ${klingJwt('other-access', secretKey, { exp: now + 600, nbf: now - 5 })}`)).json).toMatchObject({ code: 1002 });
    expect(await list(`Bearer ${klingJwt(accessKey, secretKey, { exp: now - 1, nbf: now - 600 })}`)).toMatchObject({ status: 401, json: { code: 1004 } });
    expect(await list(`Bearer ${klingJwt(accessKey, secretKey, { exp: now + 600, nbf: now + 300 })}`)).toMatchObject({ status: 401, json: { code: 1003 } });
    expect(await list(klingAuthorization(simulator))).toMatchObject({ status: 200, json: { code: 0 } });
  });
});

describe('sync media surfaces', () => {
  it('embeddings: base64 payloads decode to the same float32 vectors as float payloads', async () => {
    const body = { model: 'text-embedding-3-small', input: ['alpha', 'beta'], dimensions: 8 };
    const floats = await send(simulator, 'POST', '/v1/embeddings', openAi(), { ...body, encoding_format: 'float' });
    const base64 = await send(simulator, 'POST', '/v1/embeddings', openAi(), { ...body, encoding_format: 'base64' });
    const decoded = (base64.json.data as { embedding: string }[]).map((item) => Array.from(new Float32Array(new Uint8Array(Buffer.from(item.embedding, 'base64')).buffer)));
    expect(decoded).toEqual((floats.json.data as { embedding: number[] }[]).map((item) => item.embedding));
    expect(decoded[0]).toHaveLength(8);
    expect(floats.json.usage).toEqual({ prompt_tokens: 2, total_tokens: 2 });
  });

  it('image edits: multipart with repeated image[] files; a missing image is a 400', async () => {
    const form = new FormData();
    form.append('image[]', new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' }), 'a.png');
    form.append('image[]', new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' }), 'b.png');
    form.append('prompt', 'add a hat');
    form.append('model', 'gpt-image-1');
    const ok = await fetch(`${simulator.url}/v1/images/edits`, { method: 'POST', headers: openAi(), body: form });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ data: [{ b64_json: expect.any(String) }], usage: { input_tokens_details: { image_tokens: 130 } } });
    const missing = new FormData();
    missing.append('prompt', 'add a hat');
    const refused = await fetch(`${simulator.url}/v1/images/edits`, { method: 'POST', headers: openAi(), body: missing });
    expect(refused.status).toBe(400);
  });

  it('image generations: gpt-image models refuse response_format, dall-e answers URLs', async () => {
    expect(await send(simulator, 'POST', '/v1/images/generations', openAi(), { model: 'gpt-image-1', prompt: 'p', response_format: 'url' })).toMatchObject({
      status: 400,
      json: { error: { code: 'unknown_parameter' } },
    });
    expect(await send(simulator, 'POST', '/v1/images/generations', openAi(), { model: 'dall-e-3', prompt: 'p' })).toMatchObject({ status: 200, json: { data: [{ url: expect.stringMatching(/^https:/) }] } });
  });

  it('rerank: sorted by score with input indexes, top_n, unknown fields refused with 422', async () => {
    const auth = { authorization: `Bearer ${simulator.credentials.cohereApiKey}` };
    const ranked = await send(simulator, 'POST', '/v2/rerank', auth, { model: 'rerank-v3.5', query: 'paris france', documents: ['berlin', 'paris is in france', 'rome'], top_n: 2 });
    expect(ranked.json.results).toHaveLength(2);
    expect(ranked.json.results[0].index).toBe(1);
    expect(ranked.json.meta.billed_units.search_units).toBe(1);
    expect(await send(simulator, 'POST', '/v2/rerank', auth, { model: 'm', query: 'q', documents: ['d'], return_documents: true })).toMatchObject({ status: 422 });
  });

  it('the scenario header overrides the model and an unknown scenario is refused', async () => {
    const throttled = await send(simulator, 'POST', '/v1/embeddings', { ...openAi(), 'x-simulator-scenario': 'error.429.4' }, { model: 'm', input: 'x' });
    expect(throttled).toMatchObject({ status: 429, json: { error: { code: 'rate_limit_exceeded' } } });
    expect(throttled.headers.get('retry-after')).toBe('4');
    expect((await send(simulator, 'POST', '/v1/embeddings', { ...openAi(), 'x-simulator-scenario': 'nonsense' }, { model: 'm', input: 'x' })).status).toBe(400);
  });

  it('sends realistic rate-limit headers: x-ratelimit-* durations on the openai surface, anthropic-ratelimit-* RFC 3339 times, none on gemini', async () => {
    const first = await send(simulator, 'POST', '/v1/embeddings', openAi(), { model: 'm', input: 'x' });
    const second = await send(simulator, 'POST', '/v1/embeddings', openAi(), { model: 'm', input: 'x' });
    expect(first.headers.get('x-ratelimit-limit-requests')).toBe('500');
    expect(first.headers.get('x-ratelimit-reset-tokens')).toMatch(/^\d+(?:ms|s)$/);
    expect(Number(second.headers.get('x-ratelimit-remaining-requests'))).toBeLessThan(Number(first.headers.get('x-ratelimit-remaining-requests')));
    const anthropic = await send(simulator, 'POST', '/v1/messages', { 'x-api-key': simulator.credentials.anthropicApiKey, 'anthropic-version': '2023-06-01' }, {
      model: 'error.529',
      max_tokens: 5,
      messages: [],
    });
    expect(anthropic.headers.get('anthropic-ratelimit-input-tokens-limit')).toBe('100000');
    expect(anthropic.headers.get('anthropic-ratelimit-output-tokens-reset')).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    const gemini = await send(simulator, 'POST', '/v1beta/models/m:generateContent', { 'x-goog-api-key': simulator.credentials.geminiApiKey }, { contents: [] });
    expect([...gemini.headers.keys()].filter((name) => name.includes('ratelimit'))).toEqual([]);
  });

  it('a 529 from the anthropic surface carries Retry-After and overloaded_error', async () => {
    const answer = await send(simulator, 'POST', '/v1/messages', { 'x-api-key': simulator.credentials.anthropicApiKey, 'anthropic-version': '2023-06-01' }, {
      model: 'error.529',
      max_tokens: 5,
      messages: [],
    });
    expect(answer).toMatchObject({ status: 529, json: { error: { type: 'overloaded_error' } } });
    expect(answer.headers.get('retry-after')).toBe('1');
  });

  it('an openai-chat stream ends with [DONE]; a truncated one does not', async () => {
    const full = await send(simulator, 'POST', '/v1/chat/completions', openAi(), { ...chatBody, stream: true });
    expect(full.text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    const cut = await send(simulator, 'POST', '/v1/chat/completions', openAi(), { ...chatBody, model: 'truncated', stream: true });
    expect(cut.text).not.toContain('[DONE]');
    expect(cut.text).not.toContain('finish_reason":"stop');
  });
});

describe('kling jobs', () => {
  it('progress submitted -> processing -> succeed on the endpoint that created them', async () => {
    const simulator = clocked;
    const auth = { authorization: klingAuthorization(simulator) };
    const created = await send(simulator, 'POST', '/v1/videos/text2video', auth, { model_name: 'kling-v2-master', prompt: 'fox', duration: '10', external_task_id: 'kling-progress-1' });
    expect(created.json).toMatchObject({ code: 0, message: 'SUCCEED', data: { task_status: 'submitted', task_info: { external_task_id: 'kling-progress-1' } } });
    const taskId = created.json.data.task_id as string;
    expect(taskId).toMatch(/^\d{18,19}$/);
    expect((await send(simulator, 'GET', `/v1/videos/image2video/${taskId}`, auth)).json).toMatchObject({ code: 1203 });
    expect((await send(simulator, 'GET', `/v1/videos/text2video/${taskId}`, auth)).json.data.task_status).toBe('submitted');
    clock += 200;
    expect((await send(simulator, 'GET', `/v1/videos/text2video/${taskId}`, auth)).json.data.task_status).toBe('processing');
    clock += 150;
    const done = await send(simulator, 'GET', `/v1/videos/text2video/${taskId}`, auth);
    expect(done.json.data).toMatchObject({ task_status: 'succeed', task_result: { videos: [{ duration: '10', url: expect.stringMatching(/^https:/) }] } });
    expect(done.json.data.updated_at).toBeGreaterThan(done.json.data.created_at);
    expect((await send(simulator, 'POST', '/v1/videos/text2video', auth, { prompt: 'fox', external_task_id: 'kling-progress-1' })).json).toMatchObject({ code: 1201 });
  });

  it('counts the status reads of each job and the most in flight at once (reads held pollDelayMs)', async () => {
    const held = await startProviderSimulator({ jobTimings: { queuedMs: 0, runningMs: 0, pollDelayMs: 150 } });
    try {
      const auth = { authorization: klingAuthorization(held) };
      const created = await send(held, 'POST', '/v1/videos/text2video', auth, { model_name: 'kling-v2-master', prompt: 'fox' });
      const taskId = created.json.data.task_id as string;
      await Promise.all([0, 1, 2].map(() => send(held, 'GET', `/v1/videos/text2video/${taskId}`, auth)));
      await send(held, 'GET', `/v1/videos/text2video/${taskId}`, auth);
      expect(held.jobPolls().get(taskId)).toEqual({ polls: 4, maxConcurrent: 3 });
    } finally {
      await held.close();
    }
  });

  it('job-fail ends failed with a reason; list pages by pageNum and pageSize', async () => {
    const auth = { authorization: klingAuthorization(simulator) };
    const failed = await send(simulator, 'POST', '/v1/videos/image2video', auth, { model_name: 'job-fail.0.0', image: 'https://img.example/a.png' });
    const taskId = failed.json.data.task_id as string;
    expect((await send(simulator, 'GET', `/v1/videos/image2video/${taskId}`, auth)).json.data).toMatchObject({ task_status: 'failed', task_status_msg: expect.any(String) });
    for (let index = 0; index < 2; index += 1) await send(simulator, 'POST', '/v1/videos/image2video', auth, { image: 'https://img.example/a.png' });
    const first = await send(simulator, 'GET', '/v1/videos/image2video?pageNum=1&pageSize=2', auth);
    const second = await send(simulator, 'GET', '/v1/videos/image2video?pageNum=2&pageSize=2', auth);
    expect(first.json.data).toHaveLength(2);
    expect(second.json.data).toHaveLength(1);
    expect(second.json.data[0].task_id).toBe(taskId);
  });

  it('callbacks: each phase change is POSTed (bare task object) to a loopback URL; other hosts are refused', async () => {
    const received: { task_id: string; task_status: string }[] = [];
    const receiver: Server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received.push(JSON.parse(body) as { task_id: string; task_status: string });
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const auth = { authorization: klingAuthorization(simulator) };
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/kling-callback`;
      const created = await send(simulator, 'POST', '/v1/videos/text2video', auth, { model_name: 'job.40.40', prompt: 'fox', callback_url: url });
      const remote = await send(simulator, 'POST', '/v1/videos/text2video', auth, { model_name: 'job.0.0', prompt: 'fox', callback_url: 'https://hooks.example.com/x' });
      const taskId = created.json.data.task_id as string;
      const delivered = () => simulator.callbacks.filter((delivery) => delivery.jobId === taskId).length;
      for (let waited = 0; waited < 5000 && delivered() < 3; waited += 20) await sleep(20);
      expect(received.filter((item) => item.task_id === taskId).map((item) => item.task_status)).toEqual(['submitted', 'processing', 'succeed']);
      expect(simulator.callbacks.filter((delivery) => delivery.jobId === remote.json.data.task_id).every((delivery) => delivery.outcome === 'refused')).toBe(true);
      expect(simulator.callbacks.filter((delivery) => delivery.jobId === taskId).map((delivery) => delivery.outcome)).toEqual([200, 200, 200]);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});

describe('dashscope tasks', () => {
  const create = (model: string, extraHeaders: Record<string, string> = { 'x-dashscope-async': 'enable' }) =>
    send(simulator, 'POST', '/api/v1/services/aigc/video-generation/video-synthesis', { ...dashScope(), ...extraHeaders }, { model, input: { prompt: 'waves' }, parameters: { duration: 5 } });

  it('needs X-DashScope-Async, then progresses PENDING -> RUNNING -> SUCCEEDED with UTC+8 times', async () => {
    const simulator = clocked;
    const create = (model: string, extraHeaders: Record<string, string> = { 'x-dashscope-async': 'enable' }) =>
      send(simulator, 'POST', '/api/v1/services/aigc/video-generation/video-synthesis', { authorization: `Bearer ${simulator.credentials.dashScopeApiKey}`, ...extraHeaders }, { model, input: { prompt: 'waves' }, parameters: { duration: 5 } });
    const dashScope = (): Record<string, string> => ({ authorization: `Bearer ${simulator.credentials.dashScopeApiKey}` });
    expect(await create('wan', {})).toMatchObject({ status: 403, json: { code: 'AccessDenied' } });
    const created = await create('wan');
    expect(created.json).toMatchObject({ output: { task_status: 'PENDING' } });
    const taskId = created.json.output.task_id as string;
    const get = () => send(simulator, 'GET', `/api/v1/tasks/${taskId}`, dashScope());
    expect((await get()).json.output.task_status).toBe('PENDING');
    clock += 200;
    expect((await get()).json.output.task_status).toBe('RUNNING');
    clock += 150;
    const done = (await get()).json;
    expect(done).toMatchObject({ output: { task_status: 'SUCCEEDED', video_url: expect.stringMatching(/^https:/) }, usage: { video_duration: 5 } });
    const submit = done.output.submit_time as string;
    expect(submit).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/);
    expect(Date.parse(`${submit.replace(' ', 'T')}+08:00`)).toBe(clock - 350);
    expect((await send(simulator, 'GET', '/api/v1/tasks/00000000-0000-4000-8000-000000000000', dashScope())).json).toMatchObject({ output: { task_status: 'UNKNOWN' } });
  });

  it('job-fail reports the reason inside output with HTTP 200', async () => {
    const created = await create('job-fail.0.0');
    const answer = await send(simulator, 'GET', `/api/v1/tasks/${created.json.output.task_id as string}`, dashScope());
    expect(answer).toMatchObject({ status: 200, json: { output: { task_status: 'FAILED', code: expect.any(String), message: expect.any(String) } } });
  });

  it('cancel works while PENDING only (400 UnsupportedOperation after)', async () => {
    const pending = (await create('job.5000.10')).json.output.task_id as string;
    expect((await send(simulator, 'POST', `/api/v1/tasks/${pending}/cancel`, dashScope())).status).toBe(200);
    expect((await send(simulator, 'GET', `/api/v1/tasks/${pending}`, dashScope())).json.output.task_status).toBe('CANCELED');
    const running = (await create('job.0.5000')).json.output.task_id as string;
    expect(await send(simulator, 'POST', `/api/v1/tasks/${running}/cancel`, dashScope())).toMatchObject({ status: 400, json: { code: 'UnsupportedOperation' } });
    expect((await send(simulator, 'GET', `/api/v1/tasks/${running}`, dashScope())).json.output.task_status).toBe('RUNNING');
  });

  it('lists with page_no / page_size / model_name and reports total and total_page', async () => {
    for (let index = 0; index < 5; index += 1) await create('wan-paging');
    const page = (number: number) => send(simulator, 'GET', `/api/v1/tasks?page_no=${number}&page_size=2&model_name=wan-paging`, dashScope());
    const first = (await page(1)).json;
    expect(first).toMatchObject({ total: 5, total_page: 3, page_no: 1, page_size: 2 });
    expect(first.data[0]).toMatchObject({ status: 'PENDING', model_name: 'wan-paging', gmt_create: expect.any(Number) });
    expect((await page(3)).json.data).toHaveLength(1);
    const ids = new Set([...first.data, ...(await page(2)).json.data, ...(await page(3)).json.data].map((item: { task_id: string }) => item.task_id));
    expect(ids.size).toBe(5);
  });
});

describe('tls', () => {
  it('serves HTTPS with a certificate generated at start', async () => {
    const secure = await startProviderSimulator({ tls: true });
    try {
      expect(secure.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(secure.certificate?.cert).toContain('BEGIN CERTIFICATE');
      const { Agent, request } = await import('undici');
      const dispatcher = new Agent({ connect: { ca: secure.certificate?.cert ?? '' } });
      const answer = await request(`${secure.url}/v1/embeddings`, {
        method: 'POST',
        dispatcher,
        headers: { authorization: `Bearer ${secure.credentials.openAiApiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm', input: 'x' }),
      });
      expect(answer.statusCode).toBe(200);
      await answer.body.dump();
      await dispatcher.close();
    } finally {
      await secure.close();
    }
  });
});
