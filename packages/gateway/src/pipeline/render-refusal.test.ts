import type { EgressCodecV1, EgressContextV1, EgressFailureV3 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { STRUCTURED_OUTPUT_HEADER } from '../dialects/structured-output-header.js';
import { CLIENT_KEY_REFUSAL, egressRefusal } from './gateway-refusal.js';
import { renderRefusal, type RefusalRendering } from './render-refusal.js';

const context: EgressContextV1 = { responseId: 'gw-1', modelLabel: 'm', createdAtMs: 0 };
const egressAnswering = (status: number, headers: Record<string, string> = {}): { egress: EgressCodecV1; seen: EgressFailureV3[] } => {
  const seen: EgressFailureV3[] = [];
  const egress = {
    encodeError: (failure: EgressFailureV3, given: EgressContextV1) => {
      seen.push(failure);
      expect(given).toBe(context);
      return { status, headers: { 'content-type': 'application/json', ...headers }, body: new TextEncoder().encode('{"error":{}}') };
    },
  } as unknown as EgressCodecV1;
  return { egress, seen };
};
const rendering = (egress: EgressCodecV1, extra: Partial<RefusalRendering> = {}): RefusalRendering => ({ egress, context, errorShape: 'anthropic', requestId: 'req-1', ...extra });
const overloaded: EgressFailureV3 = { source: 'provider', failure: { code: 'overloaded', retryable: true, retryAfterMs: 1500 } };

describe('renderRefusal', () => {
  it('answers a refusal with the dialect egress’s error, the request id, a retry-after in whole seconds and the passed headers', async () => {
    const { egress, seen } = egressAnswering(503);
    const response = renderRefusal(egressRefusal(overloaded, 'refused:draining', { 'x-ratelimit-remaining-requests': '0' }), rendering(egress));
    expect(seen).toEqual([overloaded]);
    expect(response.status).toBe(503);
    expect(Object.fromEntries(response.headers)).toEqual({
      'content-type': 'application/json',
      'x-request-id': 'req-1',
      'retry-after': '2',
      'x-ratelimit-remaining-requests': '0',
    });
    expect(await response.text()).toBe('{"error":{}}');
  });

  it('keeps a retry-after the egress wrote, adds none for a non-provider failure, and names how structured output was carried', () => {
    const own = renderRefusal(egressRefusal(overloaded, 'failed:overloaded'), rendering(egressAnswering(529, { 'retry-after': '7' }).egress));
    expect(own.headers.get('retry-after')).toBe('7');
    const ingress = renderRefusal(egressRefusal({ source: 'ingress', code: 'malformed-json' }, 'refused:malformed-json'), rendering(egressAnswering(400).egress, { structuredOutput: 'tool' }));
    expect(ingress.headers.get('retry-after')).toBeNull();
    expect(ingress.headers.get(STRUCTURED_OUTPUT_HEADER)).toBe('tool');
  });

  it('answers a client-key refusal with the dialect’s own 401, not the egress', async () => {
    const { egress, seen } = egressAnswering(500);
    const response = renderRefusal(CLIENT_KEY_REFUSAL, rendering(egress));
    expect(seen).toEqual([]);
    expect(response.status).toBe(401);
    expect(response.headers.get('x-request-id')).toBe('req-1');
    expect(await response.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' }, request_id: 'req-1' });
  });
});
