import { ProtocolViolationError } from '../../codec-kit/index.js';

/** Latest instant a UTC timestamp of the job contract can hold (`9999-12-31T23:59:59.999Z`). */
const MAX_EPOCH_MS = 253_402_300_799_999;

/**
 * Kling's `created_at` / `updated_at` (epoch **milliseconds**, fact sheet §4 edge case 1) as an ISO 8601 UTC
 * instant. A negative value or one past year 9999 is a protocol violation: read as seconds by mistake it would
 * land thousands of years ahead, so the range check is also the unit check.
 */
export function convertKlingEpochMs(epochMs: number, path: string): string {
  if (!Number.isSafeInteger(epochMs) || epochMs < 0 || epochMs > MAX_EPOCH_MS) {
    throw new ProtocolViolationError('invalid-event', `Kling ${path} is not an epoch-millisecond time in range`);
  }
  return new Date(epochMs).toISOString();
}
