import type { ProviderTransportMetadataV1 } from '@tokenforge/model-protocol';
import type { RestrictedAddressCategory } from './address-policy/classify-address.js';

/** The secret a host passes for one connection; its shape must match the family's auth scheme. */
export type HttpTransportCredentials =
  /** For the `bearer` and `header` schemes: the API key sent as is. */
  | { readonly type: 'api-key'; readonly apiKey: string }
  /**
   * For the `hs256-jwt` scheme: `accessKey` becomes the token's `iss` claim and `secretKey` signs it.
   * Neither is ever sent; only the short-lived token is.
   */
  | { readonly type: 'access-key'; readonly accessKey: string; readonly secretKey: string };

/**
 * Resolves a host name to IP address strings (IPv4 or IPv6). Called once for every new connection; the
 * answer is checked against the policy and the socket connects to the first address, so a later answer
 * cannot redirect that connection. Rejections become `dns-failed`.
 */
export type HttpTransportHostnameResolver = (
  hostname: string,
  options: { readonly signal: AbortSignal },
) => Promise<readonly string[]>;

/** Network policy and limits of one transport. Every field is optional; the defaults are the strict ones. */
export interface HttpTransportPolicy {
  /**
   * Restricted address categories this connection may reach, for example `['loopback']` for a local
   * simulator or `['private']` for a provider inside the host's own network. Default: none, so only
   * public addresses are reached.
   */
  readonly allowedAddressCategories?: readonly RestrictedAddressCategory[];
  /**
   * Allows an `http:` base URL, and then only when every resolved address is loopback (and `loopback` is
   * allowed). Default `false`: only `https:`.
   */
  readonly allowInsecureHttpToLoopback?: boolean;
  /**
   * What a 301/302/303/307/308 answer with a `Location` does. `refuse` (default): the request fails with
   * `redirect-refused`. `follow-same-origin`: a redirect to the same scheme, host and port is followed up to
   * `maxRedirects` times; any other redirect still fails with `redirect-refused`.
   */
  readonly redirects?: 'refuse' | 'follow-same-origin';
  /** Redirects followed per request under `follow-same-origin`. Integer 1-10, default 3. */
  readonly maxRedirects?: number;
  /** Milliseconds for resolving and connecting (TCP and TLS) a new socket. Default 10 000. */
  readonly connectTimeoutMs?: number;
  /** Milliseconds from sending the request to the response head. Default 300 000 (non-streamed answers are slow). */
  readonly headersTimeoutMs?: number;
  /** Longest silence in milliseconds between two body chunks while the consumer is reading. Default 120 000. */
  readonly bodyIdleTimeoutMs?: number;
  /**
   * Longest time in milliseconds from the response head to the end of a body that is not an event stream
   * (`content-type: text/event-stream`), however steadily bytes arrive: a body that drips one byte at a time
   * never trips the idle timeout but trips this one (`timeout`, after-send). Default 600 000 (10 minutes:
   * image generation can take minutes).
   */
  readonly bodyDeadlineMs?: number;
  /**
   * Longest time in milliseconds between the response head and the consumer's first pull of the body. A body
   * nobody reads holds its socket; after this the socket is closed and a later read fails with `timeout`
   * (after-send), so `close()` always finishes. Default 60 000.
   */
  readonly firstPullTimeoutMs?: number;
  /** Largest response body in bytes, counted while streaming. Default 64 MiB. */
  readonly maxResponseBytes?: number;
  /**
   * Most sockets open at once for this connection. Default 16. A request that finds them all busy waits for one
   * at most `connectTimeoutMs`, then fails `before-send` with reason `timeout` (see `isConnectionPoolExhausted`).
   */
  readonly maxConnections?: number;
  /** Milliseconds an idle keep-alive socket is kept for reuse. Default 4 000. */
  readonly keepAliveTimeoutMs?: number;
  /**
   * PEM certificates of the authorities to trust instead of the system roots, for a private CA or a test
   * server. Default: the system roots.
   */
  readonly trustedCertificates?: string | readonly string[];
}

/** What a host passes to create the transport of one provider connection. */
export interface CreateHttpProviderTransportOptions {
  /**
   * The provider's base URL (`https://host[:port][/path-prefix]`). Request paths are appended to its path.
   * It must not carry userinfo, a query or a fragment.
   */
  readonly baseUrl: string;
  /** The connection's secret. Adapters never see it; it is used only to build the auth header. */
  readonly credentials: HttpTransportCredentials;
  /** The family's declared transport metadata (auth scheme and fixed headers), from its protocol suite. */
  readonly metadata: ProviderTransportMetadataV1;
  /** Network policy and limits; see {@link HttpTransportPolicy}. */
  readonly policy?: HttpTransportPolicy;
  /** Host name resolver. Default: the operating system's resolver (`dns.lookup`, all addresses). */
  readonly resolveHostname?: HttpTransportHostnameResolver;
  /** Clock in epoch milliseconds, for JWT claims. Default `Date.now`. */
  readonly now?: () => number;
}
