/** Why a codec refused input. A closed set: branch on it, never on the message. */
export const CODEC_ERROR_CODES_V1 = [
  'body-too-large',
  'malformed-json',
  'nesting-too-deep',
  'forbidden-key',
  'invalid-encoding',
  'invalid-request',
  'unsupported-feature',
  'frame-too-large',
] as const;
export type CodecErrorCodeV1 = (typeof CODEC_ERROR_CODES_V1)[number];

const CODEC_ERROR_MARKER = Symbol.for('tokenforge.codec-error.v1');

/**
 * A typed codec failure. `message` names the rule and a JSON path, never the offending value: client
 * prompts and provider payloads do not leak through it.
 */
export class CodecErrorV1 extends Error {
  /** The stable code. */
  readonly code: CodecErrorCodeV1;
  /** JSON path of the offending field, when there is one (`messages.3.content.0`). */
  readonly path: string | undefined;

  constructor(code: CodecErrorCodeV1, message: string, options?: { path?: string; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CodecErrorV1';
    this.code = code;
    this.path = options?.path;
    Object.defineProperty(this, CODEC_ERROR_MARKER, { value: true });
  }
}

/** Recognizes a codec error across realms and package copies. Never throws. */
export function isCodecErrorV1(value: unknown): value is CodecErrorV1 {
  try {
    if (typeof value !== 'object' || value === null) return false;
    const candidate = value as Record<PropertyKey, unknown>;
    return (
      candidate[CODEC_ERROR_MARKER] === true &&
      typeof candidate.code === 'string' &&
      (CODEC_ERROR_CODES_V1 as readonly string[]).includes(candidate.code)
    );
  } catch {
    return false;
  }
}
