import {
  ProviderProcessFailureV4,
  type ProviderProcessRunRequestV4,
  type ProviderProcessTransportV4,
} from '@tokenforge/model-protocol';
import type { ProcessTransportOptions } from './process-transport-options.js';
import { runProcess } from './run-process.js';
import { RunSlots } from './run-slots.js';

/**
 * A process transport bound to one target: each `run` spawns one run of the target's CLI. `send` refuses before
 * sending (a process transport speaks no HTTP), so a family that expects HTTP fails cleanly instead of hanging.
 */
export function createProcessProviderTransport(options: ProcessTransportOptions): ProviderProcessTransportV4 {
  if (!Number.isInteger(options.deadlineMs) || options.deadlineMs <= 0) throw new TypeError('deadlineMs must be a positive integer');
  const slots = new RunSlots(options.maxConcurrentRuns ?? 1, options.maxQueuedRuns ?? 0);
  return {
    transportKind: 'process/v4',
    program: options.program,
    builtInTools: options.builtInTools ?? 'none',
    send: () => Promise.reject(new ProviderProcessFailureV4('http-refused')),
    async run(request: ProviderProcessRunRequestV4) {
      const release = await slots.take(request.signal);
      try {
        const run = await runProcess(options, request);
        void run.exit.then(release);
        return run;
      } catch (error) {
        release();
        throw error;
      }
    },
  };
}
