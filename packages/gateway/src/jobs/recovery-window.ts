import { isoSeconds } from './tracked-job-view.js';

/**
 * The submission window a recovery token lists after a create whose acceptance is unknown: from one second before the
 * create was sent to at least one second after its answer, in whole UTC seconds. The start is rounded down and the end
 * up, so the window never ends sooner than one second after the answer (rounding the end down could close it a
 * millisecond after the answer and miss a job the provider created just then).
 */
export function recoveryWindow(submittedAtMs: number, answeredAtMs: number): { from: string; to: string } {
  return { from: isoSeconds(submittedAtMs - 1000), to: isoSeconds(Math.ceil((answeredAtMs + 1000) / 1000) * 1000) };
}
