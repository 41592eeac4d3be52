/** A request body ready for undici: its content type, exact length and a way to produce the bytes. */
export interface EncodedBody {
  readonly contentType: string;
  readonly contentLength: number;
  /** Produces the bytes; called once per attempt (a followed 307/308 redirect sends the body again). */
  readonly open: () => Uint8Array | AsyncIterable<Uint8Array>;
}
