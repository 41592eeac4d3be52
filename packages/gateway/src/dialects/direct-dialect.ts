import type { ClientWireRequestV2, EgressCodecV1, IngressDecodedRequestV1, PreparedMediaExecutionInputV2, ProtocolFamily } from '@tokenforge/model-protocol';
import type { ClientKeyPlacement } from '../http/authenticate-client.js';
import type { ErrorShape } from '../http/client-auth-refusal.js';

/** One client dialect endpoint: whose codecs decode and encode, and where its clients put their key. */
export interface DirectDialect {
  /** The codec family of the dialect (`openai-chat/v1`, ...). */
  readonly family: ProtocolFamily;
  readonly keyPlacement: ClientKeyPlacement;
  /** The envelope of a client-key refusal. */
  readonly errorShape: ErrorShape;
  /** Decodes the body itself instead of the ingress codec (OpenAI image edits: a multipart form with files). */
  readonly decode?: (body: Uint8Array, request: Request) => Promise<{ decoded: IngressDecodedRequestV1; preparedMedia?: PreparedMediaExecutionInputV2 }>;
  /** An egress for what this request asked (OpenAI embeddings: the client's `encoding_format`). */
  readonly egressFor?: (decoded: IngressDecodedRequestV1) => EgressCodecV1 | undefined;
  /** The ingress decode of this endpoint's wire request, in place of the dialect's own (a counting endpoint). */
  readonly decodeWire?: (wire: ClientWireRequestV2) => IngressDecodedRequestV1;
  /** The egress this endpoint answers with, built on the dialect's own (a counting endpoint: its count answer). */
  readonly wrapEgress?: (egress: EgressCodecV1) => EgressCodecV1;
}
