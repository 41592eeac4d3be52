import type { ClientWireRequestV1, IngressDecodedRequestV1 } from '../v1/codec-contracts-v1.js';
import type { ProtocolFamily } from '../../protocol-family/protocol-family.js';

/**
 * A client request in some dialect, with the request headers that change what its body means. Every V1 field is
 * unchanged, so a V2 request is also a valid V1 request and every V1 ingress codec still takes it.
 */
export interface ClientWireRequestV2 extends ClientWireRequestV1 {
  /**
   * Request headers that change the meaning of the body (for example `anthropic-version`, `anthropic-beta`),
   * with lower-case names. A host passes only such headers: never credentials (`authorization`, `x-api-key`,
   * `x-goog-api-key`) or cookies. Absent when the host has none to pass.
   */
  readonly headers?: Readonly<Record<string, string>>;
}

/** An ingress codec that reads {@link ClientWireRequestV2}, headers included. Pure: no I/O, no clock. */
export interface IngressCodecV2 {
  /** The dialect. */
  readonly protocolFamily: ProtocolFamily;
  /** Decodes a request; throws `CodecErrorV1` on anything it cannot represent faithfully. */
  decodeRequest(request: ClientWireRequestV2): IngressDecodedRequestV1;
}
