import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createLogCapture } from '../test-support/log-capture.js';
import { createOperatorLogger, logRequest, OPERATOR_LOG_FLUSH_MS, requestLineLevel } from './operator-log.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const MODULE = fileURLToPath(new URL('./operator-log.ts', import.meta.url));

/** Runs `script` (with `createOperatorLogger` in scope) in a node process of its own; answers its stderr lines as they come. */
function runLogging(script: string): { lines: string[]; exited: Promise<number | null>; firstLineAfterMs: Promise<number> } {
  const source = `import { createOperatorLogger } from ${JSON.stringify(MODULE)};\n${script}`;
  const child = spawn(`${ROOT}node_modules/.bin/tsx`, ['--input-type=module', '-e', source], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  const lines: string[] = [];
  const started = performance.now();
  let text = '';
  const firstLineAfterMs = new Promise<number>((resolve) => {
    child.stderr.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const parts = text.split('\n');
      text = parts.pop() ?? '';
      lines.push(...parts.filter((line) => line.length > 0));
      if (lines.length > 0) resolve(performance.now() - started);
    });
  });
  return { lines, exited: new Promise((resolve) => child.once('exit', resolve)), firstLineAfterMs };
}

describe('the default operator log on stderr (lines gathered into fewer writes)', () => {
  it('writes a lone line within its flush interval, without waiting for more lines or the exit', async () => {
    const run = runLogging(`const log = createOperatorLogger(); const t0 = Date.now(); log.info({ t0 }, 'lone'); setTimeout(() => process.exit(0), 3000);`);
    await run.firstLineAfterMs;
    expect(run.lines.map((line) => JSON.parse(line).message)).toEqual(['lone']);
    const written = Date.now() - (JSON.parse(run.lines[0] as string) as { t0: number }).t0;
    expect(written).toBeLessThan(OPERATOR_LOG_FLUSH_MS + 1500);
    expect(await run.exited).toBe(0);
  }, 20_000);

  it('loses no line when the process exits right after writing them', async () => {
    const run = runLogging(`const log = createOperatorLogger(); for (let i = 0; i < 25; i += 1) log.info({ i }, 'line'); process.exit(0);`);
    expect(await run.exited).toBe(0);
    expect(run.lines.map((line) => (JSON.parse(line) as { i: number }).i)).toEqual(Array.from({ length: 25 }, (_, index) => index));
  }, 20_000);
});

describe('logRequest', () => {
  it('writes the line after the caller’s microtasks (its response), with the facts taken at the call', async () => {
    const capture = createLogCapture();
    const logger = createOperatorLogger(capture);
    const order: string[] = [];
    logRequest(logger, { requestId: 'r-1', route: 'POST /v1/chat/completions', attempts: [], status: 200, outcome: 'completed', totalMs: 3 });
    expect(capture.lines).toHaveLength(0);
    void Promise.resolve().then(() => order.push(`response queued, ${capture.lines.length} lines`));
    await new Promise((resolve) => setImmediate(resolve));
    order.push(`after, ${capture.lines.length} lines`);
    expect(order).toEqual(['response queued, 0 lines', 'after, 1 lines']);
    expect(capture.requests()).toEqual([
      expect.objectContaining({ component: 'tokenforge-gateway', message: 'request', requestId: 'r-1', route: 'POST /v1/chat/completions', status: 200, outcome: 'completed', totalMs: 3 }),
    ]);
  });
});

describe('requestLineLevel', () => {
  const attempt = (outcome: string) => ({ target: 'chat#0', provider: 'p', family: 'openai-chat/v1', outcome });
  it('is info for successes, client refusals and clients that left', () => {
    expect(requestLineLevel({ status: 200, outcome: 'completed', attempts: [attempt('ok')] })).toBe('info');
    expect(requestLineLevel({ status: 404, outcome: 'refused:model-not-found', attempts: [] })).toBe('info');
    expect(requestLineLevel({ status: 429, outcome: 'refused:tenant-rate-limit', attempts: [] })).toBe('info');
    expect(requestLineLevel({ status: 200, outcome: 'cancelled', attempts: [attempt('ok')] })).toBe('info');
  });
  it('is warn for a success after a failed attempt and for failed answers below 500', () => {
    expect(requestLineLevel({ status: 200, outcome: 'completed', attempts: [attempt('network'), attempt('ok')] })).toBe('warn');
    expect(requestLineLevel({ status: 400, outcome: 'failed:invalid-request', attempts: [attempt('invalid-request')] })).toBe('warn');
    expect(requestLineLevel({ status: 200, outcome: 'failed-in-stream:truncated-stream', attempts: [attempt('ok')] })).toBe('warn');
  });
  it('is error for failures answered 5xx', () => {
    expect(requestLineLevel({ status: 502, outcome: 'failed:network', attempts: [attempt('PROTOCOL_ENGINE_TRANSPORT_FAILED')] })).toBe('error');
    expect(requestLineLevel({ status: 502, outcome: 'engine:PROTOCOL_ENGINE_OUTPUT_INVALID', attempts: [] })).toBe('error');
  });
  it('writes the line at its level', async () => {
    const capture = createLogCapture();
    const logger = createOperatorLogger(capture);
    logRequest(logger, { requestId: 'r-2', route: 'POST /v1/chat/completions', attempts: [attempt('network')], status: 502, outcome: 'failed:network', totalMs: 3 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(capture.requests()).toEqual([expect.objectContaining({ requestId: 'r-2', level: 50 })]);
  });
});
