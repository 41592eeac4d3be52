import type { ProviderTransport, ProviderTransportRequest, ProviderTransportResponse } from '@tokenforge/model-protocol';
import type { Pool } from 'undici';
import { createPinnedConnector } from './connect/create-pinned-connector.js';
import { refuseBeforeSend } from './failure/refuse-before-send.js';
import { createSecretRedactor } from './failure/secret-redactor.js';
import { toTransportFailure } from './failure/to-transport-failure.js';
import type { CreateHttpProviderTransportOptions } from './http-transport-options.js';
import { ConnectionPermits } from './pool/connection-permits.js';
import { loadUndici } from './pool/load-undici.js';
import { resolveTransportConfiguration } from './resolve-transport-configuration.js';
import { createResponseRedactor } from './response/response-redactor.js';
import { sendProviderRequest } from './send-provider-request.js';

/** A {@link ProviderTransport} bound to one provider connection, owning its own sockets. */
export interface HttpProviderTransport extends ProviderTransport {
  /**
   * Stops accepting requests, lets requests in flight finish (bodies still being read included) and then
   * closes every socket. Later `send` calls fail `before-send` with reason `other`. Idempotent.
   */
  close(): Promise<void>;
  /**
   * Closes every socket at once: requests in flight fail (`aborted`), unread bodies end with that failure.
   * For shutdown, or when a consumer may have abandoned a body (which would keep `close` waiting). Idempotent.
   */
  destroy(): Promise<void>;
  /** The connection pool now: its size (`maxConnections`), the connections in use, and the requests waiting for one. */
  poolUse(): HttpProviderPoolUse;
}

/** What {@link HttpProviderTransport.poolUse} answers. */
export interface HttpProviderPoolUse {
  readonly connections: number;
  readonly inUse: number;
  readonly waiting: number;
}

/**
 * Creates the transport of one provider connection: a host calls it in its `bindTransport` with the
 * connection's base URL, secret and the family's transport metadata, and closes it when done. Each transport
 * has its own undici pool, so sockets are never shared between connections or tenants.
 *
 * @throws {HttpTransportConfigurationError} when the options are unusable (checked before any network use).
 */
export function createHttpProviderTransport(options: CreateHttpProviderTransportOptions): HttpProviderTransport {
  const configuration = resolveTransportConfiguration(options);
  const credentials = configuration.credentials;
  const secrets = credentials.type === 'api-key' ? [credentials.apiKey] : [credentials.accessKey, credentials.secretKey];
  const redact = createSecretRedactor(secrets);
  const responseRedactor = createResponseRedactor(secrets);
  const permits = new ConnectionPermits(configuration.maxConnections);
  let waitingForSocket = 0;
  const socketDemand = {
    acquire: (): void => {
      waitingForSocket += 1;
    },
    release: (): void => {
      waitingForSocket -= 1;
    },
  };
  // The pool (and undici with it) is created at the first request: creating a transport costs nothing at start-up.
  let created: Pool | undefined;
  const pool = (): Pool =>
    (created ??= new (loadUndici().Pool)(configuration.origin, {
      connect: createPinnedConnector({
        rules: configuration.rules,
        resolveHostname: configuration.resolveHostname,
        connectTimeoutMs: configuration.connectTimeoutMs,
        trustedCertificates: configuration.trustedCertificates,
        hasWaitingRequest: () => waitingForSocket > 0,
      }),
      connections: configuration.maxConnections,
      pipelining: 1,
      keepAliveTimeout: configuration.keepAliveTimeoutMs,
      keepAliveMaxTimeout: configuration.keepAliveTimeoutMs,
      headersTimeout: configuration.headersTimeoutMs,
      bodyTimeout: configuration.bodyIdleTimeoutMs,
      strictContentLength: true,
    }));
  let closing: Promise<void> | undefined;
  let destroying: Promise<void> | undefined;
  return {
    async send(request: ProviderTransportRequest): Promise<ProviderTransportResponse> {
      if (closing !== undefined || destroying !== undefined) throw refuseBeforeSend('other', 'the transport is closed');
      try {
        return await sendProviderRequest(request, configuration, pool(), redact, responseRedactor, socketDemand, permits);
      } catch (error) {
        throw toTransportFailure(error, 'before-send', redact);
      }
    },
    poolUse: () => ({ connections: permits.size, inUse: permits.inUse, waiting: permits.waiting }),
    close(): Promise<void> {
      closing ??= destroying ?? created?.close() ?? Promise.resolve();
      return closing;
    },
    destroy(): Promise<void> {
      destroying ??= created?.destroy() ?? Promise.resolve();
      return destroying;
    },
  };
}
