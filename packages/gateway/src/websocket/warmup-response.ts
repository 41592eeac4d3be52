import type { AdapterTerminalOutcomeV4, EgressCodecV1, EgressContextV1 } from '@tokenforge/model-protocol';

const NOTHING_GENERATED: AdapterTerminalOutcomeV4 = {
  status: 'completed',
  result: { kind: 'chat', content: [] },
  finishReason: { unified: 'stop' },
  usage: { inputTokens: 0, outputTokens: 0 },
};

/**
 * The answer to `response.create` with `generate: false` (Codex warms a connection with one, then names its id in
 * `previous_response_id`): the dialect's own stream encoder writes a response with no output and no usage, so no
 * target is called. Returns the encoded SSE text of `response.created` … `response.completed`.
 */
export function warmupResponseStream(egress: EgressCodecV1, context: EgressContextV1): Uint8Array {
  const encoder = egress.createStreamEncoder?.(context);
  if (encoder === undefined) throw new Error(`${egress.protocolFamily} has no stream encoder`);
  return encoder.encodeTerminal(NOTHING_GENERATED);
}
