import { loadUndici } from '../pool/load-undici.js';
import type { AddressRules } from '../address-policy/address-policy.js';
import { createPinnedConnector } from '../connect/create-pinned-connector.js';
import { defaultHostnameResolver } from '../connect/default-hostname-resolver.js';
import { ConnectStageError } from '../failure/connect-stage-error.js';
import type { HttpTransportHostnameResolver } from '../http-transport-options.js';

/** One request a host sends on its own behalf (a webhook, a result download), under the upstream address policy. */
export interface OutboundRequest {
  readonly method: 'GET' | 'POST';
  /** `https:`, or `http:` only to an address the rules allow for plain HTTP (loopback). */
  readonly url: URL;
  readonly headers?: Readonly<Record<string, string>>;
  /** The body the host wrote (never a client's or a provider's bytes passed through). */
  readonly body?: string | Uint8Array;
  /** What the host may reach: the same rules as provider connections (no private, link-local or metadata address). */
  readonly rules: AddressRules;
  /** The whole exchange's deadline, connect included. */
  readonly timeoutMs: number;
  /** Keep the response body up to this many bytes (a larger one fails as `too-large`); absent: the body is discarded. */
  readonly maxResponseBytes?: number;
  /** Default: the operating system's resolver, every address. */
  readonly resolveHostname?: HttpTransportHostnameResolver;
  /** PEM authorities to trust instead of the system roots (a private CA, tests). */
  readonly trustedCertificates?: readonly string[];
}

/** What an outbound request gave: an answer (any status: redirects are never followed), or why there was none. */
export type OutboundResult =
  | { readonly kind: 'response'; readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body?: Uint8Array }
  | { readonly kind: 'failed'; readonly reason: 'policy-refused' | 'timeout' | 'connection' | 'too-large' };

function headersOf(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return headers;
}

function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current = error; current !== undefined && current !== null && chain.length < 8; current = (current as { cause?: unknown }).cause) chain.push(current);
  return chain;
}

/**
 * Sends one request under the transport's address policy: the host name is resolved once, every answer checked,
 * and the socket pinned to a checked address while TLS still verifies the original name (the same connector as
 * provider connections). Redirects are never followed; one connection per call, closed after it. Never throws for
 * network trouble: the answer says what happened.
 */
export async function sendOutboundRequest(request: OutboundRequest): Promise<OutboundResult> {
  const signal = AbortSignal.timeout(request.timeoutMs);
  // undici is loaded at the first outbound request, as the transport's pools load it at their first request.
  const { Client, errors: undiciErrors } = loadUndici();
  const client = new Client(request.url.origin, {
    connect: createPinnedConnector({
      rules: request.rules,
      resolveHostname: request.resolveHostname ?? defaultHostnameResolver,
      connectTimeoutMs: request.timeoutMs,
      trustedCertificates: request.trustedCertificates,
      hasWaitingRequest: () => true,
    }),
    pipelining: 1,
  });
  try {
    const response = await client.request({
      method: request.method,
      path: `${request.url.pathname}${request.url.search}`,
      headers: { ...request.headers, ...(request.body === undefined ? {} : { 'content-length': String(typeof request.body === 'string' ? Buffer.byteLength(request.body) : request.body.byteLength) }) },
      ...(request.body === undefined ? {} : { body: request.body }),
      signal,
    });
    const headers = headersOf(response.headers);
    if (request.maxResponseBytes === undefined) {
      await response.body.dump();
      return { kind: 'response', status: response.statusCode, headers };
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      if (size > request.maxResponseBytes) {
        response.body.destroy();
        return { kind: 'failed', reason: 'too-large' };
      }
      chunks.push(chunk);
    }
    return { kind: 'response', status: response.statusCode, headers, body: Buffer.concat(chunks) };
  } catch (error) {
    const chain = causeChain(error);
    if (chain.some((entry) => entry instanceof ConnectStageError && entry.reason === 'policy-refused')) return { kind: 'failed', reason: 'policy-refused' };
    if (signal.aborted || chain.some((entry) => entry instanceof undiciErrors.HeadersTimeoutError || entry instanceof undiciErrors.BodyTimeoutError || (entry instanceof ConnectStageError && entry.reason === 'timeout'))) {
      return { kind: 'failed', reason: 'timeout' };
    }
    return { kind: 'failed', reason: 'connection' };
  } finally {
    client.destroy().catch(() => undefined);
  }
}
