import { isCodecErrorV1, type ClientWireRequestV2, type IngressCodecV1, type IngressDecodedRequestV1, type PreparedMediaExecutionInputV2 } from '@tokenforge/model-protocol';
import type { DirectDialect } from '../dialects/direct-dialect.js';
import { meaningfulHeaders } from '../http/meaningful-headers.js';
import { readLimitedBody } from '../http/read-limited-body.js';
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
}

/** The client's request as the engine reads it. */
export interface DecodedRequest {
  readonly decoded: IngressDecodedRequestV1;
  /** Media the dialect's own decoder prepared (image edits). */
  readonly preparedMedia?: PreparedMediaExecutionInputV2 | undefined;
}

/** Reads the body up to the limit and decodes it (the dialect's own decoder, its wire decoder, or the ingress). */
export async function decodeStage(input: DecodeInput): Promise<StageOutcome<DecodedRequest>> {
  const { request, dialect } = input;
  const body = await readLimitedBody(request, input.maxBodyBytes);
  if (body === undefined) return refuse(egressRefusal({ source: 'ingress', code: 'body-too-large' }, 'refused:body-too-large'));
  try {
    if (dialect.decode !== undefined) {
      const custom = await dialect.decode(body, request);
      return proceed({ decoded: custom.decoded, preparedMedia: custom.preparedMedia });
    }
    const url = new URL(request.url);
    const wire: ClientWireRequestV2 = { path: url.pathname, query: Object.fromEntries(url.searchParams), body, headers: meaningfulHeaders(request.headers) };
    return proceed({ decoded: dialect.decodeWire === undefined ? input.ingress.decodeRequest(wire) : dialect.decodeWire(wire) });
  } catch (error) {
    if (!isCodecErrorV1(error)) throw error;
    return refuse(egressRefusal({ source: 'ingress', code: error.code, ...(error.path === undefined ? {} : { param: error.path }) }, `refused:${error.code}`));
  }
}
