import type { ProtocolFamily } from '@tokenforge/model-protocol';

/**
 * Async families whose provider stores the idempotency key the gateway sends and echoes it on every listed job
 * (Kling's `external_task_id`). Only there can a listed job be proven to be the caller's, by the owner tag the key
 * starts with; a recovery over a family not listed here answers `recovery-unsupported` (DashScope documents no such
 * field, see provider-adapters `dashscope-tasks/README.md`).
 */
export const FAMILIES_ECHOING_IDEMPOTENCY_KEY: ReadonlySet<ProtocolFamily> = new Set<ProtocolFamily>(['kling-video/v1']);
