import type { IncomingMessage } from 'node:http';
import { isCodecErrorV1, type ClientWireRequestV2, type IngressCodecV1, type IngressDecodedRequestV1, type PreparedMediaExecutionInputV2 } from '@tokenforge/model-protocol';
import type { DirectDialect } from '../dialects/direct-dialect.js';
import { meaningfulHeaders } from '../http/meaningful-headers.js';
import { isGatewayShutdown } from '../http/request-deadline.js';
import { BodyReadTimeoutError, readLimitedBody, type BodyDeadlines } from '../http/read-limited-body.js';
import { readLimitedIncomingBody } from '../http/read-limited-incoming-body.js';
import { egressRefusal } from '../pipeline/gateway-refusal.js';
import { proceed, refuse, type StageOutcome } from '../pipeline/stage.js';

/** What the decode stage reads. */
export interface DecodeInput {
  readonly request: Request;
  readonly dialect: DirectDialect;
  /** The dialect's ingress codec. */
  readonly ingress: IngressCodecV1;
  /** The most body bytes the gateway reads. */
  readonly maxBodyBytes: number;
  /** How long the body may take; none for a request built in-process. */
  readonly bodyDeadlines?: BodyDeadlines | undefined;
  /** `request.url` parsed, when the caller already has it. */
  readonly url?: URL | undefined;
  /** The `node:http` request under `request` (on `@hono/node-server`): its body is read from it directly. */
  readonly incoming?: IncomingMessage | undefined;
}

/** The client's request as the engine reads it. */
export interface DecodedRequest {
  readonly decoded: IngressDecodedRequestV1;
  /** Media the dialect's own decoder prepared (image edits). */
  readonly preparedMedia?: PreparedMediaExecutionInputV2 | undefined;
  /** Bytes of the request body as received (what a governance reservation bounds input tokens by). */
  readonly bodyBytes: number;
}

/**
 * Reads the body up to the limit and within its deadlines (a slow body is refused `GATEWAY_BODY_TIMEOUT`, 408, and
 * the connection closed after the answer; a body still arriving at the drain deadline `GATEWAY_SHUTTING_DOWN`), then
 * decodes it (the dialect's own decoder, its wire decoder, or the
 * ingress).
 */
export async function decodeStage(input: DecodeInput): Promise<StageOutcome<DecodedRequest>> {
  const { request, dialect } = input;
  let body: Uint8Array | undefined;
  try {
    body =
      input.incoming === undefined
        ? await readLimitedBody(request, input.maxBodyBytes, input.bodyDeadlines)
        : await readLimitedIncomingBody(input.incoming, input.maxBodyBytes, input.bodyDeadlines);
  } catch (error) {
    if (isGatewayShutdown(error)) return refuse(egressRefusal({ source: 'engine', code: 'GATEWAY_SHUTTING_DOWN' }, 'cancelled:shutdown', { connection: 'close' }));
    // Any other failure of the body is the client going away.
    if (!(error instanceof BodyReadTimeoutError)) return refuse(egressRefusal({ source: 'engine', code: 'PROTOCOL_ENGINE_ABORTED' }, 'cancelled'));
    return refuse(egressRefusal({ source: 'engine', code: 'GATEWAY_BODY_TIMEOUT' }, `refused:body-timeout-${error.deadline}`, { connection: 'close' }));
  }
  if (body === undefined) return refuse(egressRefusal({ source: 'ingress', code: 'body-too-large' }, 'refused:body-too-large'));
  try {
    if (dialect.decode !== undefined) {
      const custom = await dialect.decode(body, request);
      return proceed({ decoded: custom.decoded, preparedMedia: custom.preparedMedia, bodyBytes: body.byteLength });
    }
    const url = input.url ?? new URL(request.url);
    const wire: ClientWireRequestV2 = { path: url.pathname, query: Object.fromEntries(url.searchParams), body, headers: meaningfulHeaders(request.headers) };
    return proceed({ decoded: dialect.decodeWire === undefined ? input.ingress.decodeRequest(wire) : dialect.decodeWire(wire), bodyBytes: body.byteLength });
  } catch (error) {
    if (!isCodecErrorV1(error)) throw error;
    return refuse(egressRefusal({ source: 'ingress', code: error.code, ...(error.path === undefined ? {} : { param: error.path }) }, `refused:${error.code}`));
  }
}
