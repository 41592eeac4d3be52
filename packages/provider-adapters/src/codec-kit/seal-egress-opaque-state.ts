import {
  EGRESS_STREAM_EVENT_TEXT_V1,
  type AdapterTerminalOutcomeV4,
  type EgressCodecV1,
  type EgressStreamEncoderV1,
  type EgressStreamEventTextV1,
  type NormalizedStreamEventV4,
  type ProtocolFamily,
  type TaskResultV4,
} from '@tokenforge/model-protocol';
import type { OpaqueStateSeal } from './opaque-state-seal.js';

/** Where an answer came from and where it goes, for {@link sealEgressOpaqueState}. */
export interface OpaqueStateSource {
  /** The family of the target that produced the answer. */
  readonly sourceFamily: ProtocolFamily;
  /** The host's seal; without one, another family's values are left out of the answer. */
  readonly seal: OpaqueStateSeal | undefined;
  /**
   * Told the type of each answer part left out whole (`compaction`, and `redacted-reasoning` without a seal) as the
   * answer is encoded (a streamed part may be told again by the terminal): a host names the distinct types (a sync
   * answer's header, a stream's log line).
   */
  readonly onLeftOut?: ((partType: 'compaction' | 'redacted-reasoning') => void) | undefined;
}

type ChatResult = Extract<TaskResultV4, { kind: 'chat' }>;

type LeftOut = ((partType: 'compaction' | 'redacted-reasoning') => void) | undefined;

function sealResult(result: ChatResult, carry: (value: string) => string | undefined, leftOut: LeftOut): ChatResult {
  const content: ChatResult['content'] = [];
  for (const part of result.content) {
    if ((part.type === 'reasoning' || part.type === 'tool-call') && part.signature !== undefined) {
      const carried = carry(part.signature);
      if (carried !== undefined) content.push({ ...part, signature: carried });
      else {
        const { signature: _left, ...rest } = part;
        content.push(rest as typeof part);
      }
    } else if (part.type === 'redacted-reasoning') {
      const carried = carry(part.data);
      if (carried !== undefined) content.push({ ...part, data: carried });
      else leftOut?.('redacted-reasoning');
    } else if (part.type === 'compaction') leftOut?.('compaction');
    else content.push(part);
  }
  return { ...result, content };
}

function sealEvent(event: NormalizedStreamEventV4, carry: (value: string) => string | undefined, leftOut: LeftOut): NormalizedStreamEventV4 | undefined {
  if ((event.type === 'reasoning-end' || event.type === 'tool-call-end') && event.signature !== undefined) {
    const carried = carry(event.signature);
    if (carried !== undefined) return { ...event, signature: carried };
    const { signature: _left, ...rest } = event;
    return rest as NormalizedStreamEventV4;
  }
  if (event.type === 'reasoning-redacted') {
    const carried = carry(event.data);
    if (carried === undefined) leftOut?.('redacted-reasoning');
    return carried === undefined ? undefined : { ...event, data: carried };
  }
  // Another family's compaction is one provider's summary in its own form: no other dialect may carry it.
  if (event.type === 'compaction') {
    leftOut?.('compaction');
    return undefined;
  }
  return event;
}

/**
 * Wraps a client dialect's egress for one answer so that opaque provider state (reasoning signatures, tool-call
 * signatures, redacted reasoning) from another family travels in the gateway's sealed wrapper naming that family;
 * the dialect's own family's values pass unchanged. Each dialect then writes the value in its opaque field or
 * drops it where it has none (never forging one). Without a seal, another family's values are left out. Another
 * family's compaction blocks are always left out of the answer. Each part left out whole is told to `onLeftOut`.
 * A stream encoder that offers its events as text (`EGRESS_STREAM_EVENT_TEXT_V1`) still does once wrapped.
 */
export function sealEgressOpaqueState(egress: EgressCodecV1, source: OpaqueStateSource): EgressCodecV1 {
  if (source.sourceFamily === egress.protocolFamily) return egress;
  const { seal, sourceFamily, onLeftOut } = source;
  const carry = (value: string): string | undefined => seal?.seal(sourceFamily, value);
  const sealOutcome = (outcome: AdapterTerminalOutcomeV4): AdapterTerminalOutcomeV4 =>
    outcome.status === 'completed' && outcome.result.kind === 'chat' ? { ...outcome, result: sealResult(outcome.result, carry, onLeftOut) } : outcome;
  const createStreamEncoder = egress.createStreamEncoder;
  return Object.freeze({
    protocolFamily: egress.protocolFamily,
    encodeResponse: (outcome, context) => egress.encodeResponse(sealOutcome(outcome), context),
    encodeError: (failure, context) => egress.encodeError(failure, context),
    ...(createStreamEncoder === undefined
      ? {}
      : {
          createStreamEncoder: (context) => {
            const inner: EgressStreamEncoderV1 & EgressStreamEventTextV1 = createStreamEncoder.call(egress, context);
            const encoder: EgressStreamEncoderV1 & EgressStreamEventTextV1 = {
              contentType: inner.contentType,
              encodeEvent: (event) => {
                const sealed = sealEvent(event, carry, onLeftOut);
                return sealed === undefined ? new Uint8Array(0) : inner.encodeEvent(sealed);
              },
              encodeTerminal: (outcome) => inner.encodeTerminal(sealOutcome(outcome)),
            };
            // Keep the inner encoder's text form, so a host still joins a read's events as text and encodes them once.
            const innerText = inner[EGRESS_STREAM_EVENT_TEXT_V1];
            if (typeof innerText === 'function') {
              encoder[EGRESS_STREAM_EVENT_TEXT_V1] = (event) => {
                const sealed = sealEvent(event, carry, onLeftOut);
                return sealed === undefined ? '' : innerText.call(inner, sealed);
              };
            }
            return encoder;
          },
        }),
  } satisfies EgressCodecV1);
}
