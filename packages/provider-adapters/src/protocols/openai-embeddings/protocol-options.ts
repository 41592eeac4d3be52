/**
 * Options of the `openai-embeddings/v1` family for compatible servers that differ from OpenAI. They are facts a
 * host configures about a server, never guessed from a provider or model name. Every option has a default.
 */
export interface OpenAiEmbeddingsProtocolOptionsV1 {
  /**
   * The `encoding_format` to ask for: `base64` (default) or `float`. Base64 carries the raw little-endian float32
   * bytes, which decode straight into a `Float32Array` about 20 times faster than parsing and copying a JSON
   * number array, and is a third of the size on the wire. Choose `float` only for a compatible server that does
   * not implement base64. The decoder reads both forms whatever was asked.
   */
  readonly encodingFormat?: 'base64' | 'float';
  /**
   * Longest single input in UTF-16 code units (default {@link DEFAULT_OPENAI_EMBEDDINGS_MAX_INPUT_CHARACTERS}).
   * A longer input is refused before anything is sent.
   */
  readonly maxInputCharacters?: number;
}

/**
 * Default bound of one input: 65,536 UTF-16 code units. OpenAI refuses inputs above 8,192 tokens; natural text
 * averages about 4 characters per token, so this bound (8 characters per token) refuses only inputs that are far
 * past the token limit, without a tokenizer. Inputs under it may still exceed the token limit; the provider then
 * answers `invalid-request` (or `context-length-exceeded`).
 */
export const DEFAULT_OPENAI_EMBEDDINGS_MAX_INPUT_CHARACTERS = 65_536;

/** Most inputs one request may carry (OpenAI's documented limit). */
export const OPENAI_EMBEDDINGS_MAX_INPUTS = 2048;

/** The options with their defaults filled in. */
export interface ResolvedOpenAiEmbeddingsProtocolOptionsV1 {
  /** The `encoding_format` to ask for. */
  readonly encodingFormat: 'base64' | 'float';
  /** Longest single input in UTF-16 code units. */
  readonly maxInputCharacters: number;
}

/** Fills in the defaults. */
export function resolveOpenAiEmbeddingsProtocolOptions(
  options?: OpenAiEmbeddingsProtocolOptionsV1,
): ResolvedOpenAiEmbeddingsProtocolOptionsV1 {
  return {
    encodingFormat: options?.encodingFormat ?? 'base64',
    maxInputCharacters: options?.maxInputCharacters ?? DEFAULT_OPENAI_EMBEDDINGS_MAX_INPUT_CHARACTERS,
  };
}
