import { sendOutboundRequest, type HttpTransportHostnameResolver } from '@tokenforge/http-transport';
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

/**
 * Sends one webhook POST through the transport's outbound request (`sendOutboundRequest`): the upstream address
 * policy (no private, link-local, metadata or other restricted address; loopback only when the operator allows it),
 * the host name resolved once and the socket pinned to a checked address, TLS verifying the original name.
 * Redirects are never followed: a 3xx is a failed attempt.
 */
export async function deliverWebhook(request: WebhookRequest): Promise<WebhookAttemptResult> {
  const result = await sendOutboundRequest({
    method: 'POST',
    url: request.url,
    headers: { 'content-type': 'application/json', ...request.headers },
    body: request.body,
    rules: callbackAddressRules(request.url, request.policy),
    timeoutMs: request.timeoutMs,
    ...(request.resolveHostname === undefined ? {} : { resolveHostname: request.resolveHostname }),
    ...(request.trustedCertificates === undefined ? {} : { trustedCertificates: request.trustedCertificates }),
  });
  if (result.kind === 'failed') {
    if (result.reason === 'policy-refused') return { outcome: 'failed', reason: 'address-policy', permanent: true };
    return { outcome: 'failed', reason: result.reason === 'timeout' ? 'timeout' : 'connection' };
  }
  const status = result.status;
  if (status >= 200 && status < 300) return { outcome: 'delivered', status };
  return status >= 300 && status < 400 ? { outcome: 'failed', status, reason: 'redirect' } : { outcome: 'failed', status };
}
