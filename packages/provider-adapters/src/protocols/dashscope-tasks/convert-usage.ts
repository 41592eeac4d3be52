import type { UsageV1 } from '@tokenforge/model-protocol';
import type { DashScopeWireTask } from './wire-readers.js';

/**
 * Usage of a DashScope task: `usage.image_count` is `images`; `usage.video_duration` (else `usage.duration`) is
 * `videoSeconds`, rounded up to a whole second when fractional (DashScope bills whole seconds). Fields DashScope did
 * not report stay absent; no usage at all gives `undefined`.
 */
export function convertDashScopeUsage(task: DashScopeWireTask): UsageV1 | undefined {
  const usage: { images?: number; videoSeconds?: number } = {};
  if (task.imageCount !== undefined) usage.images = task.imageCount;
  if (task.videoDuration !== undefined && task.videoDuration <= Number.MAX_SAFE_INTEGER) usage.videoSeconds = Math.ceil(task.videoDuration);
  return Object.keys(usage).length === 0 ? undefined : usage;
}
