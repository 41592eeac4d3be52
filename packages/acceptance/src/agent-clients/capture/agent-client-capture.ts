import type { RecordedRequest } from '../recorder/request-recorder.js';

/** One committed capture: what one CLI sent in one scenario, sanitized (see sanitize-capture.ts). */
export interface AgentClientCapture {
  /** `claude`, `codex`, `gemini` or `opencode`. */
  readonly client: string;
  /** The npm package the CLI came from. */
  readonly package: string;
  /** Its version. */
  readonly version: string;
  /** `plain`, `tool` or `thinking`. */
  readonly scenario: string;
  /** Capture date, `YYYY-MM-DD` (UTC). */
  readonly capturedAt: string;
  /** The CLI's exit code (null when it was killed at the time limit). */
  readonly exitCode: number | null;
  /** Every request it sent, in order. */
  readonly requests: readonly RecordedRequest[];
}
