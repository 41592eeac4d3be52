import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startOnFreeLoopbackPort } from './free-loopback-port.js';

const run = promisify(execFile);

/** Debian's PostgreSQL 15 server binaries (not on PATH). */
export const POSTGRES_BIN = '/usr/lib/postgresql/15/bin';

/** A real PostgreSQL 15 cluster on a free loopback port, in a temporary folder owned by an unprivileged user. */
export interface PostgresServerHandle {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication on loopback). */
  readonly url: string;
  readonly port: number;
  /** Stops the server (`pg_ctl stop -m fast`). */
  stop(): Promise<void>;
  /** Starts it again on the same port and data folder. */
  start(): Promise<void>;
  /** Stops the server and removes its folder. */
  dispose(): Promise<void>;
}

/** Whether `initdb` and `pg_ctl` of PostgreSQL 15 are installed. */
export function postgresServerInstalled(): boolean {
  return existsSync(join(POSTGRES_BIN, 'initdb')) && existsSync(join(POSTGRES_BIN, 'pg_ctl'));
}

/**
 * PostgreSQL refuses to run as root: as root the cluster belongs to the `postgres` user (or `nobody`) and every
 * command runs through `runuser`; otherwise as the current user.
 */
function unprivilegedUser(): { readonly name: string; readonly uid: number; readonly gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const passwd = readFileSync('/etc/passwd', 'utf8').split('\n').map((line) => line.split(':'));
  const entry = passwd.find((fields) => fields[0] === 'postgres') ?? passwd.find((fields) => fields[0] === 'nobody');
  if (entry === undefined) throw new Error('running as root with neither a postgres nor a nobody user');
  return { name: entry[0]!, uid: Number(entry[2]), gid: Number(entry[3]) };
}

/** Creates a cluster with `initdb` and starts it with `pg_ctl`, durability traded for speed (tests only). */
export async function startPostgresServer(): Promise<PostgresServerHandle> {
  const user = unprivilegedUser();
  const folder = mkdtempSync(join(tmpdir(), 'tf-postgres-'));
  const data = join(folder, 'data');
  const sockets = join(folder, 'sockets');
  mkdirSync(sockets);
  if (user !== undefined) {
    chownSync(folder, user.uid, user.gid);
    chownSync(sockets, user.uid, user.gid);
  }
  const asUser = async (command: string, args: readonly string[]): Promise<void> => {
    const binary = join(POSTGRES_BIN, command);
    const [file, argv] = user === undefined ? [binary, args] : ['runuser', ['-u', user.name, '--', binary, ...args]];
    await run(file, argv, { cwd: folder, timeout: 60_000 });
  };
  let port = 0;
  await asUser('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-locale', '--no-sync']);
  const options = (): string => [
    `-p ${port}`, '-c listen_addresses=127.0.0.1', `-c unix_socket_directories=${sockets}`, '-c fsync=off',
    '-c synchronous_commit=off', '-c full_page_writes=off', '-c max_connections=60', '-c shared_buffers=16MB',
  ].join(' ');
  let running = false;
  const start = async (): Promise<void> => {
    await asUser('pg_ctl', ['-D', data, '-o', options(), '-l', join(folder, 'server.log'), '-w', '-t', '60', 'start']);
    running = true;
  };
  const stop = async (): Promise<void> => {
    if (!running) return;
    running = false;
    await asUser('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']);
  };
  port = await startOnFreeLoopbackPort(async (candidate) => {
    port = candidate;
    await start();
  });
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop,
    start,
    async dispose() {
      await stop().catch(() => undefined);
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
