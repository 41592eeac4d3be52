/**
 * The bench load generator, run as its own process (forked with IPC): receives a {@link LoadJob}, keeps
 * `concurrency` requests in flight over keep-alive sockets (node:http, one socket per slot) until `count`
 * requests or `durationMs` have passed, and answers with a {@link LoadResult}.
 */
import { Agent, request } from 'node:http';

/** One bounded load run. */
export interface LoadJob {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly concurrency: number;
  /** At most this many requests are started. */
  readonly count: number;
  /** No request is started after this many milliseconds. */
  readonly durationMs: number;
}

/** What one load run measured (milliseconds). */
export interface LoadResult {
  readonly completed: number;
  readonly failed: number;
  /** First failure (status and the start of its body), for the console. */
  readonly firstFailure?: string;
  readonly elapsedMs: number;
  /** Completed requests per second over the run. */
  readonly requestsPerSecond: number;
  /** Whole-response latencies, sorted. */
  readonly latenciesMs: readonly number[];
  /** Time to the first body byte, sorted. */
  readonly firstByteMs: readonly number[];
  /** Body bytes of the last response (a check that streams arrived whole). */
  readonly lastBodyBytes: number;
}

function once(agent: Agent, url: URL, job: LoadJob, body: Buffer): Promise<{ ok: boolean; totalMs: number; firstByteMs: number; bytes: number; failure?: string }> {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    let firstByte = 0n;
    let bytes = 0;
    const chunks: Buffer[] = [];
    const outgoing = request(
      { agent, host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { ...job.headers, 'content-length': String(body.byteLength) } },
      (response) => {
        response.on('data', (chunk: Buffer) => {
          if (firstByte === 0n) firstByte = process.hrtime.bigint();
          bytes += chunk.byteLength;
          if (response.statusCode !== 200 && chunks.length < 4) chunks.push(chunk);
        });
        response.on('end', () => {
          const ended = process.hrtime.bigint();
          const ok = response.statusCode === 200 && bytes > 0;
          resolve({
            ok,
            totalMs: Number(ended - started) / 1e6,
            firstByteMs: Number((firstByte === 0n ? ended : firstByte) - started) / 1e6,
            bytes,
            ...(ok ? {} : { failure: `${response.statusCode}: ${Buffer.concat(chunks).toString('utf8').slice(0, 300)}` }),
          });
        });
        response.on('error', (error) => resolve({ ok: false, totalMs: 0, firstByteMs: 0, bytes, failure: String(error) }));
      },
    );
    outgoing.on('error', (error) => resolve({ ok: false, totalMs: 0, firstByteMs: 0, bytes, failure: String(error) }));
    outgoing.end(body);
  });
}

/** Runs one job. */
export async function runLoad(job: LoadJob): Promise<LoadResult> {
  const url = new URL(job.url);
  const agent = new Agent({ keepAlive: true, maxSockets: job.concurrency, maxFreeSockets: job.concurrency });
  const body = Buffer.from(job.body);
  const latencies: number[] = [];
  const firstBytes: number[] = [];
  let failed = 0;
  let firstFailure: string | undefined;
  let started = 0;
  let lastBodyBytes = 0;
  const begin = process.hrtime.bigint();
  const deadline = begin + BigInt(Math.round(job.durationMs * 1e6));
  const worker = async (): Promise<void> => {
    while (started < job.count && process.hrtime.bigint() < deadline) {
      started += 1;
      const result = await once(agent, url, job, body);
      if (result.ok) {
        latencies.push(result.totalMs);
        firstBytes.push(result.firstByteMs);
        lastBodyBytes = result.bytes;
      } else {
        failed += 1;
        firstFailure ??= result.failure;
      }
    }
  };
  await Promise.all(Array.from({ length: job.concurrency }, worker));
  const elapsedMs = Number(process.hrtime.bigint() - begin) / 1e6;
  agent.destroy();
  latencies.sort((left, right) => left - right);
  firstBytes.sort((left, right) => left - right);
  return {
    completed: latencies.length,
    failed,
    ...(firstFailure === undefined ? {} : { firstFailure }),
    elapsedMs,
    requestsPerSecond: latencies.length / (elapsedMs / 1000),
    latenciesMs: latencies,
    firstByteMs: firstBytes,
    lastBodyBytes,
  };
}

if (process.send !== undefined) {
  process.on('message', (job: LoadJob) => {
    runLoad(job).then(
      (result) => process.send?.(result),
      (error: unknown) => process.send?.({ error: String(error) }),
    );
  });
}
