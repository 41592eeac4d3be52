import {
  ProviderProcessFailureV4,
  type ProviderProcessRunRequestV4,
  type ProviderProcessTransportV4,
} from '@tokenforge/model-protocol';
import type { ProcessTransportOptions } from './process-transport-options.js';
import { runProcess } from './run-process.js';

/**
 * A process transport bound to one target: each `run` spawns one run of the target's CLI. `send` refuses before
 * sending (a process transport speaks no HTTP), so a family that expects HTTP fails cleanly instead of hanging.
 */
export function createProcessProviderTransport(options: ProcessTransportOptions): ProviderProcessTransportV4 {
  if (!Number.isInteger(options.deadlineMs) || options.deadlineMs <= 0) throw new TypeError('deadlineMs must be a positive integer');
  return {
    transportKind: 'process/v4',
    program: options.program,
    send: () => Promise.reject(new ProviderProcessFailureV4('http-refused')),
    run: (request: ProviderProcessRunRequestV4) => runProcess(options, request),
  };
}
