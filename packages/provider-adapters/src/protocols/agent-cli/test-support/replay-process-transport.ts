import type { ProviderProcessBuiltInToolsV4, ProviderProcessExitV4, ProviderProcessRunRequestV4, ProviderProcessTransportV4 } from '@tokenforge/model-protocol';

/** What a replayed run prints and how it ends. */
export interface ReplayedRun {
  /** The stdout text (recorded NDJSON or constructed). */
  readonly stdout: string;
  /** How the run ends (default: exited 0). */
  readonly exit?: ProviderProcessExitV4;
  /** Split stdout into reads of these byte sizes, cycling (default: one read). */
  readonly readSizes?: readonly number[];
}

/**
 * A process transport for tests: `run` replays recorded stdout bytes (split into reads as asked) and the recorded
 * exit, and keeps every run request so a test asserts what the family asked to run.
 */
export function createReplayProcessTransport(
  program: string,
  runs: ReplayedRun[],
  builtInTools?: ProviderProcessBuiltInToolsV4,
): ProviderProcessTransportV4 & { readonly requests: ProviderProcessRunRequestV4[]; readonly released: () => number } {
  const requests: ProviderProcessRunRequestV4[] = [];
  let released = 0;
  return {
    transportKind: 'process/v4',
    program,
    ...(builtInTools === undefined ? {} : { builtInTools }),
    requests,
    released: () => released,
    send: () => Promise.reject(new Error('a process transport speaks no HTTP')),
    async run(request) {
      requests.push(request);
      const replay = runs.shift();
      if (replay === undefined) throw new Error('no replayed run left');
      const bytes = new TextEncoder().encode(replay.stdout);
      let finished!: () => void;
      const ended = new Promise<void>((resolve) => (finished = resolve));
      async function* stdout(): AsyncGenerator<Uint8Array> {
        let offset = 0;
        let turn = 0;
        try {
          while (offset < bytes.length) {
            const sizes = replay?.readSizes ?? [bytes.length];
            const size = Math.max(1, sizes[turn++ % sizes.length] ?? bytes.length);
            yield bytes.slice(offset, offset + size);
            offset += size;
          }
        } finally {
          if (offset < bytes.length) released += 1;
          finished();
        }
      }
      return { stdout: stdout(), exit: ended.then(() => replay.exit ?? { reason: 'exited', exitCode: 0 }) };
    },
  };
}
