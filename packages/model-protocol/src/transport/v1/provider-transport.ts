import { z } from 'zod';

/** A multipart form field holding text. */
export interface ProviderMultipartTextFieldV1 {
  readonly kind: 'field';
  /** Form field name. */
  readonly name: string;
  /** Field value. */
  readonly value: string;
}

/** A multipart form field holding a streamed file. */
export interface ProviderMultipartFileFieldV1 {
  readonly kind: 'file';
  /** Form field name, for example `image[]`. */
  readonly name: string;
  /** File name sent in `Content-Disposition`. */
  readonly fileName: string;
  /** IANA media type of the file. */
  readonly mediaType: string;
  /** Exact size in bytes. */
  readonly sizeBytes: number;
  /** Opens the bytes; the transport streams them without buffering the whole file. */
  open(): AsyncIterable<Uint8Array>;
}

export type ProviderMultipartPartV1 = ProviderMultipartTextFieldV1 | ProviderMultipartFileFieldV1;

/** The body of a provider request. */
export type ProviderTransportBody =
  /** No body (GET, and POSTs without payload). */
  | { readonly type: 'none' }
  /** A JSON document; the transport serializes it. */
  | { readonly type: 'json'; readonly value: unknown }
  /** A `multipart/form-data` body; the transport chooses the boundary and streams files. */
  | { readonly type: 'multipart'; readonly parts: readonly ProviderMultipartPartV1[] };

/**
 * What an adapter asks the transport to send. Never holds a base URL or a credential: the host's transport
 * owns both and applies authentication by the family's declared scheme.
 */
export interface ProviderTransportRequest {
  /** HTTP method. */
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** Path below the connection's base URL, starting with `/`, without query string. */
  readonly path: string;
  /** Query parameters (the transport encodes them). */
  readonly query?: Readonly<Record<string, string>>;
  /** Request headers with lower-case names; never authentication headers. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body. */
  readonly body: ProviderTransportBody;
  /** Aborts the request and the body read. */
  readonly signal: AbortSignal;
}

/** What the provider answered. The body is read by iterating; ending the iteration early releases it. */
export interface ProviderTransportResponse {
  /** HTTP status code. */
  readonly status: number;
  /** Response headers with lower-case names (repeated headers joined with `, `). */
  readonly headers: Readonly<Record<string, string>>;
  /** The body bytes in the order received. Iterate to the end or call `return()` to release the connection. */
  readonly body: AsyncIterable<Uint8Array>;
}

/** The credential-bound transport port a host supplies per request. */
export interface ProviderTransport {
  /** Sends one request. Rejects with a {@link ProviderTransportFailureV1} when no response head arrives. */
  send(request: ProviderTransportRequest): Promise<ProviderTransportResponse>;
}

/** Whether the request may have reached the provider when the transport failed. */
export type ProviderTransportFailureStageV1 = 'before-send' | 'after-send';

/** Why a transport failed (a closed set; never a message from the network). */
export const PROVIDER_TRANSPORT_FAILURE_REASONS_V1 = [
  'policy-refused',
  'dns-failed',
  'connect-failed',
  'tls-failed',
  'timeout',
  'aborted',
  'connection-lost',
  'response-too-large',
  'redirect-refused',
  'protocol-error',
  'other',
] as const;
export type ProviderTransportFailureReasonV1 = (typeof PROVIDER_TRANSPORT_FAILURE_REASONS_V1)[number];

const TRANSPORT_FAILURE_MARKER = Symbol.for('tokenforge.provider-transport-failure.v1');

/**
 * A transport failure. `stage` says truthfully whether any byte of the request may have reached the
 * provider: that is what makes an async start `not-accepted` or `unknown`.
 */
export class ProviderTransportFailureV1 extends Error {
  /** Whether the request may have reached the provider. */
  readonly stage: ProviderTransportFailureStageV1;
  /** Why it failed. */
  readonly reason: ProviderTransportFailureReasonV1;

  constructor(stage: ProviderTransportFailureStageV1, reason: ProviderTransportFailureReasonV1, options?: { cause?: unknown }) {
    super(`provider transport failed ${stage}: ${reason}`, options);
    this.name = 'ProviderTransportFailureV1';
    this.stage = stage;
    this.reason = reason;
    Object.defineProperty(this, TRANSPORT_FAILURE_MARKER, { value: true });
  }
}

/** Recognizes a transport failure structurally, across realms and package copies. Never throws. */
export function isProviderTransportFailureV1(value: unknown): value is ProviderTransportFailureV1 {
  try {
    if (typeof value !== 'object' || value === null) return false;
    const candidate = value as Record<PropertyKey, unknown>;
    return (
      candidate[TRANSPORT_FAILURE_MARKER] === true &&
      (candidate.stage === 'before-send' || candidate.stage === 'after-send') &&
      typeof candidate.reason === 'string' &&
      (PROVIDER_TRANSPORT_FAILURE_REASONS_V1 as readonly string[]).includes(candidate.reason)
    );
  } catch {
    return false;
  }
}

/** Structural schema of a transport port (it must have a `send` function). */
export const providerTransportSchema = z.custom<ProviderTransport>(
  (value) => typeof value === 'object' && value !== null && typeof (value as { send?: unknown }).send === 'function',
  { message: 'a transport must have a send function' },
);
