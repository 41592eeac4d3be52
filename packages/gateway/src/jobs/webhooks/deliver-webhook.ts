import { findAddressRefusal, findHostnameRefusal, type HttpTransportHostnameResolver } from '@tokenforge/http-transport';
import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { callbackAddressRules, type CallbackUrlPolicy } from './callback-url-policy.js';

/** One POST of a signed event. */
export interface WebhookRequest {
  readonly url: URL;
  readonly policy: CallbackUrlPolicy;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly timeoutMs: number;
  /** Default: the operating system's resolver, every address. */
  readonly resolveHostname?: HttpTransportHostnameResolver;
  /** PEM authorities to trust instead of the system roots (a private CA, tests). */
  readonly trustedCertificates?: readonly string[];
}

/** What one delivery attempt gave. `permanent` failures are not retried (the address policy refused the receiver). */
export type WebhookAttemptResult =
  | { readonly outcome: 'delivered'; readonly status: number }
  | { readonly outcome: 'failed'; readonly status?: number; readonly reason?: 'timeout' | 'connection' | 'redirect'; readonly permanent?: false }
  | { readonly outcome: 'failed'; readonly reason: 'address-policy'; readonly permanent: true };

const defaultResolver: HttpTransportHostnameResolver = async (hostname) => (await lookup(hostname, { all: true })).map((entry) => entry.address);

/**
 * Sends one webhook POST under the upstream address policy: the host name is resolved once, every answer is
 * checked (no private, link-local, metadata or other restricted address; loopback only when the operator allows
 * it), and the socket connects to a checked address while TLS still verifies the original name, so a DNS answer
 * that changes later cannot move it. Redirects are never followed: a 3xx is a failed attempt.
 */
export async function deliverWebhook(request: WebhookRequest): Promise<WebhookAttemptResult> {
  const rules = callbackAddressRules(request.url, request.policy);
  const host = request.url.hostname.startsWith('[') ? request.url.hostname.slice(1, -1) : request.url.hostname;
  if (findHostnameRefusal(host, rules) !== undefined) return { outcome: 'failed', reason: 'address-policy', permanent: true };
  const signal = AbortSignal.timeout(request.timeoutMs);
  let addresses: readonly string[];
  try {
    addresses = isIP(host) !== 0 ? [host] : await (request.resolveHostname ?? defaultResolver)(host, { signal });
  } catch {
    return { outcome: 'failed', reason: 'connection' };
  }
  if (findAddressRefusal(addresses, rules) !== undefined) return { outcome: 'failed', reason: 'address-policy', permanent: true };
  const [address = host] = addresses;
  const family = isIP(address);
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all === true) (callback as (error: null, entries: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const send = request.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const outgoing = send(
      request.url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(request.body)), ...request.headers },
        lookup: pinned,
        signal,
        ...(request.trustedCertificates === undefined ? {} : { ca: [...request.trustedCertificates] }),
      },
      (response: IncomingMessage) => {
        response.resume();
        const status = response.statusCode ?? 0;
        const done = (): void =>
          resolve(status >= 200 && status < 300 ? { outcome: 'delivered', status } : status >= 300 && status < 400 ? { outcome: 'failed', status, reason: 'redirect' } : { outcome: 'failed', status });
        response.once('end', done);
        response.once('error', done);
      },
    );
    outgoing.once('error', () => resolve({ outcome: 'failed', reason: signal.aborted ? 'timeout' : 'connection' }));
    outgoing.end(request.body);
  });
}
