import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import type { buildConnector } from 'undici';
import { findAddressRefusal, findHostnameRefusal, normalizeHostname, type AddressRules } from '../address-policy/address-policy.js';
import { parseIpAddress } from '../address-policy/parse-ip-address.js';
import { ConnectStageError } from '../failure/connect-stage-error.js';
import type { HttpTransportHostnameResolver } from '../http-transport-options.js';

/** What the connector needs to open one checked, pinned socket. */
export interface PinnedConnectorOptions {
  readonly rules: AddressRules;
  readonly resolveHostname: HttpTransportHostnameResolver;
  readonly connectTimeoutMs: number;
  readonly trustedCertificates: readonly string[] | undefined;
  /**
   * Whether some request of this transport is waiting for a socket. Undici requeues an aborted request and
   * reconnects for it only to drop it; refusing that connection keeps an abort from opening an idle socket.
   */
  readonly hasWaitingRequest: () => boolean;
}

/**
 * An undici connector that resolves the host name once per socket, checks every answer against the policy,
 * and connects to the checked addresses in order (the next one only when TCP connect fails) while TLS still
 * verifies (and SNI still names) the original host.
 * The socket never re-resolves, so a DNS answer that changes later (rebinding) cannot move it.
 */
export function createPinnedConnector(options: PinnedConnectorOptions): buildConnector.connector {
  return (target, callback) => {
    if (!options.hasWaitingRequest()) {
      // Asynchronously, as a real connect fails: undici resumes its queue (and settles a pending close) only then.
      queueMicrotask(() => callback(new ConnectStageError('other', 'no request is waiting for a socket'), null));
      return;
    }
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), options.connectTimeoutMs);
    openPinnedSocket(target, options, deadline.signal).then(
      (socket) => {
        clearTimeout(timer);
        callback(null, socket);
      },
      (error: unknown) => {
        clearTimeout(timer);
        callback(error instanceof ConnectStageError ? error : new ConnectStageError('connect-failed', 'connect failed', error), null);
      },
    );
  };
}

async function openPinnedSocket(target: buildConnector.Options, options: PinnedConnectorOptions, signal: AbortSignal): Promise<Socket> {
  const hostname = normalizeHostname(target.hostname);
  const hostnameRefusal = findHostnameRefusal(hostname, options.rules);
  if (hostnameRefusal !== undefined) throw new ConnectStageError('policy-refused', `refused: ${hostnameRefusal}`);
  const isLiteral = parseIpAddress(hostname) !== undefined;
  const addresses = isLiteral ? [hostname] : await resolve(hostname, options.resolveHostname, signal);
  const addressRefusal = findAddressRefusal(addresses, options.rules);
  if (addressRefusal !== undefined) throw new ConnectStageError('policy-refused', `refused: ${addressRefusal}`);
  if (signal.aborted) throw new ConnectStageError('timeout', 'connect timed out');
  const secure = target.protocol === 'https:';
  let lastFailure: ConnectStageError | undefined;
  // Every answer was checked above, so trying them in order never reaches an unchecked address.
  for (const address of addresses) {
    try {
      return await connectSocket({
        address: normalizeHostname(address),
        port: Number(target.port) || (secure ? 443 : 80),
        secure,
        // SNI and the certificate check use the original name; an IP literal gets no SNI (RFC 6066).
        servername: isLiteral ? undefined : hostname,
        trustedCertificates: options.trustedCertificates,
        signal,
      });
    } catch (error) {
      lastFailure = error instanceof ConnectStageError ? error : new ConnectStageError('connect-failed', 'connect failed', error);
      if (lastFailure.reason !== 'connect-failed') throw lastFailure;
    }
  }
  throw lastFailure ?? new ConnectStageError('connect-failed', 'connect failed');
}

function connectSocket(input: {
  address: string;
  port: number;
  secure: boolean;
  servername: string | undefined;
  trustedCertificates: readonly string[] | undefined;
  signal: AbortSignal;
}): Promise<Socket> {
  return new Promise((resolveSocket, rejectSocket) => {
    let tcpConnected = false;
    const socket = input.secure
      ? connectTls({
          host: input.address,
          port: input.port,
          ...(input.servername === undefined ? {} : { servername: input.servername }),
          ...(input.trustedCertificates === undefined ? {} : { ca: [...input.trustedCertificates] }),
          ALPNProtocols: ['http/1.1'],
          minVersion: 'TLSv1.2',
        })
      : connectTcp({ host: input.address, port: input.port });
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 60_000);
    const onTcpConnect = (): void => {
      tcpConnected = true;
      if (!input.secure) settle();
    };
    const onSecureConnect = (): void => settle();
    const onError = (error: Error): void => {
      const reason = input.secure && tcpConnected ? 'tls-failed' : 'connect-failed';
      settle(new ConnectStageError(reason, reason === 'tls-failed' ? 'TLS handshake failed' : 'connect failed', error));
    };
    const onDeadline = (): void => settle(new ConnectStageError('timeout', 'connect timed out'));
    function settle(error?: ConnectStageError): void {
      socket.off('connect', onTcpConnect).off('secureConnect', onSecureConnect).off('error', onError);
      input.signal.removeEventListener('abort', onDeadline);
      if (error === undefined) {
        resolveSocket(socket);
      } else {
        socket.destroy();
        rejectSocket(error);
      }
    }
    socket.on('connect', onTcpConnect).on('secureConnect', onSecureConnect).on('error', onError);
    input.signal.addEventListener('abort', onDeadline, { once: true });
  });
}

async function resolve(hostname: string, resolver: HttpTransportHostnameResolver, signal: AbortSignal): Promise<readonly string[]> {
  let addresses: readonly string[];
  try {
    addresses = await Promise.race([
      resolver(hostname, { signal }),
      new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
    ]);
  } catch (error) {
    if (signal.aborted) throw new ConnectStageError('timeout', 'connect timed out');
    throw new ConnectStageError('dns-failed', 'host name resolution failed', error);
  }
  if (!Array.isArray(addresses) || addresses.length === 0) {
    throw new ConnectStageError('dns-failed', 'host name resolution returned no address');
  }
  return addresses;
}
