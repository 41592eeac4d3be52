import type { UsageV1 } from '@tokenforge/model-protocol';
import type { KlingWireVideo } from './wire-readers.js';

/**
 * Usage of a finished Kling task: `videoSeconds` is the sum of the `duration` of every returned video, reported
 * only when each video carries a duration and the sum is a whole number of seconds (Kling bills 5 s and 10 s
 * clips; a fractional sum is left out rather than rounded). `final_unit_deduction` (credits) has no normalized
 * field and is not read. No videos, or a video without a duration: no usage at all (never a fabricated zero).
 */
export function convertKlingUsage(videos: readonly KlingWireVideo[] | undefined): UsageV1 | undefined {
  if (videos === undefined || videos.length === 0) return undefined;
  let seconds = 0;
  for (const video of videos) {
    if (video.durationSeconds === undefined) return undefined;
    seconds += video.durationSeconds;
  }
  return Number.isSafeInteger(seconds) ? { videoSeconds: seconds } : undefined;
}
