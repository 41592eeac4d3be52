import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repositoryRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const tsx = join(repositoryRoot, 'node_modules', '.bin', 'tsx');

interface ExampleRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a guide example the way its header says (tsx with no flag), from the repository root. */
function runExample(file: string): Promise<ExampleRun> {
  return new Promise((resolve) => {
    execFile(
      tsx,
      [join('examples', 'guide', file)],
      { cwd: repositoryRoot, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 150_000 },
      (error, stdout, stderr) => resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr }),
    );
  });
}

function lines(run: ExampleRun): string[] {
  return run.stdout.split('\n').filter((line) => line.length > 0);
}

// Each example starts its own simulator on a free loopback port, so they can run side by side.
describe.concurrent('guide examples (spawned against the in-process provider simulator)', () => {
  it('sync-chat.ts: a completed answer, a 429 as a failed terminal, a refusal before sending', { timeout: 180_000 }, async () => {
    const run = await runExample('sync-chat.ts');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(lines(run)).toEqual([
      '[sync] acceptance=accepted finish=stop answer="Hello from the simulator."',
      expect.stringMatching(/^\[sync\] usage in=\d+ out=3$/),
      '[sync] provider failure: code=rate-limited retryable=true retryAfterMs=2000',
      '[sync] refused before sending: PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED (input)',
      '[sync] example finished',
    ]);
  });

  it('stream-chat.ts: a drained stream, an early exit that cancels, a mid-stream failure', { timeout: 180_000 }, async () => {
    const run = await runExample('stream-chat.ts');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(lines(run)).toEqual([
      '[stream] events: usage, text-start, text-delta, text-delta, text-delta, text-end, usage',
      '[stream] completed: "Hello from the simulator." finish=stop out=3',
      '[stream] left after 3 deltas: terminal=cancelled',
      expect.stringMatching(/^\[stream\] mid-stream failure after ".*": code=[a-z-]+ retryable=(true|false)$/),
      '[stream] example finished',
    ]);
  });

  it('async-video-job.ts: accepted, polled to success, cancel refused, an unknown start reconciled', { timeout: 180_000 }, async () => {
    const run = await runExample('async-video-job.ts');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(lines(run)).toEqual([
      expect.stringMatching(/^\[async\] accepted: job text2video:\d+ \(stored with key order-1001\)$/),
      expect.stringMatching(/^\[async\] states: (queued -> )?(running -> )?succeeded; media=1 videoSeconds=5$/),
      '[async] cancel refused: PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED (input)',
      '[async] start outcome unknown: failureCode=network retryable=false',
      expect.stringMatching(/^\[async\] reconciled: found job text2video:\d+ for key order-1002 \((queued|running|succeeded)\); adopting it instead of resending$/),
      '[async] adopted job ended succeeded',
      '[async] example finished',
    ]);
  });

  it('custom-family.ts: a new family added to the builtin suite runs through the unchanged engine', { timeout: 180_000 }, async () => {
    const run = await runExample('custom-family.ts');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(lines(run)).toEqual([
      '[family] invalid entry refused: direct-http-mismatch (entry 0)',
      '[family] engine serves 10 families, including line-chat/v1',
      '[family] sync: "Hello in lines." finish=stop (raw end)',
      '[family] request sent: POST /v1/line-chat headers=accept,content-type',
      '[family] stream: "Hello in lines." usage in=7 out=4',
      '[family] 503: acceptance=unknown code=overloaded retryable=true',
      '[family] example finished',
    ]);
  });
});
