import type { ProtocolViolationError } from '../../codec-kit/index.js';
import { DASHSCOPE_TASKS_WIRE } from './wire-readers.js';

const UTC_PLUS_8_MS = 8 * 60 * 60 * 1000;
const MAX_EPOCH_MS = 253_402_300_799_999;
const NAIVE_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?$/;

const unreadableTime = (path: string): ProtocolViolationError => DASHSCOPE_TASKS_WIRE.violation(path, 'is not a time this family can read');

/**
 * A task GET time (`"2024-03-01 17:38:24.817"`: naive, in UTC+8, fact sheet §5 edge case 3) as a UTC ISO instant
 * (`2024-03-01T09:38:24.817Z`). Never read as local time or as UTC. Impossible dates (month 13, February 30) and
 * any other shape are protocol violations.
 */
export function convertDashScopeNaiveTime(text: string, path: string): string {
  const match = NAIVE_TIME.exec(text);
  if (match === null) throw unreadableTime(path);
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const millisecond = Number((match[7] ?? '0').padEnd(3, '0'));
  const wallClockMs = Date.UTC(year, month - 1, day, hour, minute, second, millisecond);
  const check = new Date(wallClockMs);
  if (
    year < 1970 ||
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day ||
    check.getUTCHours() !== hour ||
    check.getUTCMinutes() !== minute ||
    check.getUTCSeconds() !== second
  ) {
    throw unreadableTime(path);
  }
  return new Date(wallClockMs - UTC_PLUS_8_MS).toISOString();
}

/** A list time (epoch milliseconds, UTC) as a UTC ISO instant; out of range is a protocol violation. */
export function convertDashScopeEpochMs(epochMs: number, path: string): string {
  if (!Number.isSafeInteger(epochMs) || epochMs < 0 || epochMs > MAX_EPOCH_MS) throw unreadableTime(path);
  return new Date(epochMs).toISOString();
}

/**
 * A UTC instant as the list filter's compact `YYYYMMDDhhmmss` in UTC+8 (the zone of DashScope's other naive times;
 * the docs do not name the zone of the filter, **[U]**). The filter has whole seconds, so the instant is rounded
 * `down` (window start) or `up` (window end) to widen, never narrow, the window: the adapter then applies the exact
 * window to the epoch-millisecond `gmt_create` of each item.
 */
export function formatDashScopeFilterTime(isoInstant: string, rounding: 'down' | 'up'): string {
  const epochMs = Date.parse(isoInstant);
  const seconds = rounding === 'down' ? Math.floor(epochMs / 1000) : Math.ceil(epochMs / 1000);
  const wallClock = new Date(seconds * 1000 + UTC_PLUS_8_MS).toISOString();
  return wallClock.slice(0, 19).replace(/[-T:]/g, '');
}
