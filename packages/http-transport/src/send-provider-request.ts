import { ProviderTransportFailureV1, type ProviderTransportRequest, type ProviderTransportResponse } from '@tokenforge/model-protocol';
import type { Dispatcher } from 'undici';
import { credentialHeader } from './auth/credential-header.js';
import { refuseBeforeSend } from './failure/refuse-before-send.js';
import type { ConnectionPermits } from './pool/connection-permits.js';
import type { SecretRedactor } from './failure/secret-redactor.js';
import { HttpTransportDiagnostic } from './failure/transport-diagnostic.js';
import { buildRequestHeaders } from './request/build-request-headers.js';
import { buildRequestPath, findPathRefusal } from './request/build-request-path.js';
import { encodeJsonBody } from './request/encode-json-body.js';
import { encodeMultipartBody } from './request/encode-multipart-body.js';
import type { EncodedBody } from './request/encoded-body.js';
import type { TransportConfiguration } from './resolve-transport-configuration.js';
import { dispatchRequest, type SocketDemand } from './response/dispatch-request.js';
import type { ResponseRedactor } from './response/response-redactor.js';

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** Sends one adapter request over the connection's dispatcher, applying credentials and the redirect rule. */
export async function sendProviderRequest(
  request: ProviderTransportRequest,
  configuration: TransportConfiguration,
  dispatcher: Dispatcher,
  redact: SecretRedactor,
  responseRedactor: ResponseRedactor,
  socketDemand: SocketDemand,
  permits: ConnectionPermits,
): Promise<ProviderTransportResponse> {
  if (request.method !== 'GET' && request.method !== 'POST' && request.method !== 'DELETE') {
    throw refuseBeforeSend('policy-refused', 'request method must be GET, POST or DELETE');
  }
  const baseHeaders = buildRequestHeaders(request.headers, configuration.metadata, configuration.credentialHeaderName);
  let method = request.method;
  let path = buildRequestPath(configuration.basePath, request.path, request.query);
  let body = encodeBody(request.body);
  for (let redirects = 0; ; redirects += 1) {
    const [credentialName, credentialValue] = credentialHeader(configuration.metadata.auth, configuration.credentials, configuration.now());
    const headers: Record<string, string> = { ...baseHeaders, [credentialName]: credentialValue };
    if (body !== undefined) {
      headers['content-type'] = body.contentType;
      headers['content-length'] = String(body.contentLength);
    }
    const release = await permits.acquire(request.signal, configuration.connectTimeoutMs);
    const response = await dispatchRequest({
      onDone: release,
      dispatcher,
      method,
      path,
      headers,
      body: body?.open(),
      signal: request.signal,
      maxResponseBytes: configuration.maxResponseBytes,
      bodyDeadlineMs: configuration.bodyDeadlineMs,
      firstPullTimeoutMs: configuration.firstPullTimeoutMs,
      redact,
      socketDemand,
      // A minted token is a secret too: an echo of it is removed like the keys are.
      responseRedactor: configuration.metadata.auth.scheme === 'hs256-jwt' ? responseRedactor.including(credentialValue.slice('Bearer '.length)) : responseRedactor,
    });
    const location = response.headers.location;
    if (!REDIRECT_STATUSES.has(response.status) || location === undefined) return response;
    await response.body[Symbol.asyncIterator]().return?.();
    const target = sameOriginTarget(location, configuration.origin, path);
    const refusal =
      target === undefined
        ? 'cross-origin redirect'
        : configuration.redirects !== 'follow-same-origin' || redirects >= configuration.maxRedirects
          ? 'redirect not followed by policy'
          : findRedirectPathRefusal(target, configuration.basePath);
    if (refusal !== undefined || target === undefined) {
      throw new ProviderTransportFailureV1('after-send', 'redirect-refused', { cause: new HttpTransportDiagnostic(refusal ?? 'redirect refused') });
    }
    path = target;
    // As browsers do: 303 (and 301/302 after a POST) turn into a GET without a body; 307/308 resend it.
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
    }
  }
}

function encodeBody(body: ProviderTransportRequest['body']): EncodedBody | undefined {
  switch (body.type) {
    case 'none':
      return undefined;
    case 'json':
      return encodeJsonBody(body.value);
    case 'multipart':
      return encodeMultipartBody(body.parts);
    default: {
      const unreachable: never = body;
      throw refuseBeforeSend('other', `unknown body type${unreachable === undefined ? '' : ''}`);
    }
  }
}

/**
 * Why a same-origin redirect target is refused: it must stay under the base URL's path, as adapter paths do,
 * and pass the same segment checks (a `302 Location: /admin` from a `/v1` base would otherwise get the credential).
 */
function findRedirectPathRefusal(target: string, basePath: string): string | undefined {
  const queryIndex = target.indexOf('?');
  const targetPath = queryIndex === -1 ? target : target.slice(0, queryIndex);
  const prefix = basePath.endsWith('/') ? basePath.slice(0, -1) : basePath;
  if (prefix !== '' && targetPath !== prefix && !targetPath.startsWith(`${prefix}/`)) return 'redirect leaves the base path';
  const rest = targetPath.slice(prefix.length);
  if (rest === '' || rest === '/') return undefined;
  return findPathRefusal(rest) === undefined ? undefined : 'redirect path has an unsafe segment';
}

/** The path and query of a same-origin redirect target, or `undefined` for any other target. */
function sameOriginTarget(location: string, origin: string, currentPath: string): string | undefined {
  if (!URL.canParse(location, `${origin}${currentPath}`)) return undefined;
  const target = new URL(location, `${origin}${currentPath}`);
  if (target.origin !== origin || target.username !== '' || target.password !== '') return undefined;
  return `${target.pathname}${target.search}`;
}
