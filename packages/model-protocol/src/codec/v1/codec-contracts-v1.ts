import type { ProtocolFamily } from '../../protocol-family/protocol-family.js';
import type { TaskEnvelopeV4 } from '../../task/v4/task-envelope-v4.js';
import type { NormalizedStreamEventV4 } from '../../stream/v4/normalized-stream-event-v4.js';
import type { AdapterTerminalOutcomeV4 } from '../../outcome/v4/adapter-terminal-outcome-v4.js';
import type { NormalizedProviderFailureV1 } from '../../outcome/v1/provider-failure-v1.js';
import type { CodecErrorCodeV1 } from './codec-error-v1.js';
import type { EgressFailureV3 } from '../v3/egress-failure-v3.js';

/*
 * The codec ports. Their names keep their V1 spelling; the task, events, terminals and failures they carry are
 * the V3 revision, each a superset of its V1/V2 twin, so a codec written against V1/V2 values still produces and
 * receives valid ones.
 */

/** A client request in some dialect, as a host received it. */
export interface ClientWireRequestV1 {
  /** Request path (dialects such as Gemini carry the model and the stream flag in it). */
  readonly path: string;
  /** Query parameters. */
  readonly query?: Readonly<Record<string, string>>;
  /** The raw body bytes (parsed with the shared safe JSON parser, never `JSON.parse`). */
  readonly body: Uint8Array;
}

/** What an ingress codec makes of a client request. */
export interface IngressDecodedRequestV1 {
  /** The normalized task (V4 revision: every V2 and V3 task is one). */
  readonly task: TaskEnvelopeV4;
  /** The model name the client asked for; the host resolves it to a target. */
  readonly modelLabel: string;
}

/** Turns client requests of one dialect into tasks. Pure: no I/O, no clock. */
export interface IngressCodecV1 {
  /** The dialect. */
  readonly protocolFamily: ProtocolFamily;
  /** Decodes a request; throws {@link CodecErrorV1} on anything it cannot represent faithfully. */
  decodeRequest(request: ClientWireRequestV1): IngressDecodedRequestV1;
}

/** Facts the host supplies so that egress envelopes are well formed (ids, model label, time). */
export interface EgressContextV1 {
  /** The response id the client sees (host-generated, never the provider's). */
  readonly responseId: string;
  /** The model name the client sees (usually what it asked for). */
  readonly modelLabel: string;
  /** Creation time in epoch milliseconds. */
  readonly createdAtMs: number;
}

/** A complete HTTP answer for a client. */
export interface EgressHttpResponseV1 {
  /** HTTP status. */
  readonly status: number;
  /** Headers with lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** Body bytes. */
  readonly body: Uint8Array;
}

/** Encodes one stream for a client, event by event. Stateful; one per stream. */
export interface EgressStreamEncoderV1 {
  /** Content type of the stream (`text/event-stream`, or NDJSON for dialects that use it). */
  readonly contentType: string;
  /** Bytes for one event (possibly empty when the dialect has nothing to say yet). */
  encodeEvent(event: NormalizedStreamEventV4): Uint8Array;
  /** Bytes that end the stream for this terminal (including an in-stream error for a failed terminal). */
  encodeTerminal(outcome: AdapterTerminalOutcomeV4): Uint8Array;
}

/**
 * Key of an optional method of an {@link EgressStreamEncoderV1} (`Symbol.for`, so every package copy agrees):
 * `encoder[EGRESS_STREAM_EVENT_TEXT_V1](event)` answers the event's bytes as text, `''` for none: exactly the text
 * whose UTF-8 encoding `encodeEvent` would answer for the same event at the same point of the stream. A host that
 * writes several events at once joins their texts and encodes them once (or hands the text to a socket). Each
 * call advances the encoder like `encodeEvent`: per event, call one or the other.
 */
export const EGRESS_STREAM_EVENT_TEXT_V1: unique symbol = Symbol.for('tokenforge.egress-stream.event-text.v1');

/** The optional method behind {@link EGRESS_STREAM_EVENT_TEXT_V1}, on an {@link EgressStreamEncoderV1}. */
export interface EgressStreamEventTextV1 {
  [EGRESS_STREAM_EVENT_TEXT_V1]?(event: NormalizedStreamEventV4): string;
}

/** A failure to report in a dialect's own error envelope (closed V1 shape; `EgressFailureV3` is what egress codecs take). */
export type EgressFailureV1 =
  | { readonly source: 'provider'; readonly failure: NormalizedProviderFailureV1 }
  | { readonly source: 'ingress'; readonly code: CodecErrorCodeV1 }
  | { readonly source: 'engine'; readonly code: string };

/** Turns normalized outcomes into a dialect's responses. Pure: no I/O, no clock (time comes in the context). */
export interface EgressCodecV1 {
  /** The dialect. */
  readonly protocolFamily: ProtocolFamily;
  /** A whole (non-stream) response for a terminal outcome. */
  encodeResponse(outcome: AdapterTerminalOutcomeV4, context: EgressContextV1): EgressHttpResponseV1;
  /** A stream encoder, for dialects that stream. */
  createStreamEncoder?(context: EgressContextV1): EgressStreamEncoderV1;
  /**
   * An error response in the dialect's envelope, with its HTTP status and `retry-after` where known. Takes the V3
   * failure (an ingress refusal may name its field) since contract revision V3.
   */
  encodeError(failure: EgressFailureV3, context: EgressContextV1): EgressHttpResponseV1;
}
