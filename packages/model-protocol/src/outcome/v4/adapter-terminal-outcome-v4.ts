import { z } from 'zod';
import { taskResultV4Schema } from '../../result/v4/task-result-v4.js';
import { adapterTerminalOutcomeV3Schema } from '../v3/adapter-terminal-outcome-v3.js';

const [completedV3, failedV3, cancelledV3] = adapterTerminalOutcomeV3Schema.options;

/**
 * How a sync or stream execution ended, V4 revision: the V3 terminal whose chat result may hold compaction blocks.
 * Every V3 terminal is a V4 terminal.
 */
export const adapterTerminalOutcomeV4Schema = z.discriminatedUnion('status', [
  completedV3.extend({
    /** The result; its kind equals the task kind. */
    result: taskResultV4Schema,
  }),
  failedV3,
  cancelledV3,
]);
export type AdapterTerminalOutcomeV4 = z.infer<typeof adapterTerminalOutcomeV4Schema>;
