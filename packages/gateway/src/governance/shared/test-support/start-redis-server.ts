import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startOnFreeLoopbackPort } from './free-loopback-port.js';

/** A real `redis-server` on a free loopback port, its data (append-only file on) in a temporary folder. */
export interface RedisServerHandle {
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** Stops the server (SIGTERM: Redis writes its append-only file and exits). */
  stop(): Promise<void>;
  /** Starts it again on the same port and folder, so what the append-only file holds survives. */
  start(): Promise<void>;
  /** Stops the server and removes its folder. */
  dispose(): Promise<void>;
}

/** Whether `redis-server` can be run here. */
export function redisServerInstalled(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** Options of {@link startRedisServer}. */
export interface StartRedisServerOptions {
  /**
   * `always` (default): fsync every write, as a restart test needs. `everysec`: Redis's default, what a deployment
   * runs and a benchmark should measure.
   */
  readonly appendfsync?: 'always' | 'everysec';
}

/** Starts a real Redis with `appendonly yes` and waits until it answers. */
export async function startRedisServer(options: StartRedisServerOptions = {}): Promise<RedisServerHandle> {
  const folder = mkdtempSync(join(tmpdir(), 'tf-redis-'));
  let port = 0;
  let child: ChildProcess | undefined;

  const start = async (): Promise<void> => {
    const process_ = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', folder, '--appendonly', 'yes', '--appendfsync', options.appendfsync ?? 'always',
        '--save', '', '--protected-mode', 'no', '--loglevel', 'warning'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    process_.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child = process_;
    const deadline = Date.now() + 15_000;
    while (!(await answersPing(port))) {
      if (process_.exitCode !== null) throw new Error(`redis-server exited (${process_.exitCode}): ${stderr.slice(0, 500)}`);
      if (Date.now() > deadline) throw new Error('redis-server did not answer within 15 s');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  const stop = async (): Promise<void> => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGTERM');
    });
  };

  port = await startOnFreeLoopbackPort(async (candidate) => {
    port = candidate;
    await start();
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    start,
    async dispose() {
      await stop();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

async function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (answer: boolean): void => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString('latin1').startsWith('+PONG')));
  });
}
