import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { AGENT_CLIENT_FIXTURES_DIR, loadAgentClientCaptures } from '../test-support/load-agent-client-captures.js';
import { probeCaptures, renderIngressGaps } from './render-ingress-gaps.js';

import type { IngressGapRow } from './render-ingress-gaps.js';

let rows: IngressGapRow[] = [];
beforeAll(async () => {
  rows = await probeCaptures(loadAgentClientCaptures());
});

/** client -> the distinct first outcomes of its requests, e.g. `refused unsupported-feature messages.*.role`. */
function firstOutcomes(): Record<string, string[]> {
  const out: Record<string, Set<string>> = {};
  for (const row of rows) {
    const probe = row.probe;
    const text =
      probe.outcome === 'refused'
        ? `refused ${probe.refusals[0]?.code} ${probe.refusals[0]?.path.replace(/\.\d+(?=\.|$)/g, '.*')}`
        : probe.outcome === 'decoded'
          ? `decoded ${probe.family}`
          : 'no ingress';
    (out[row.capture.client] ??= new Set()).add(text);
  }
  return Object.fromEntries(Object.entries(out).map(([client, set]) => [client, [...set].sort()]));
}

describe('agent-client captures through the current ingress codecs', () => {
  it('probes every captured request of every CLI and scenario', () => {
    expect(new Set(rows.map((row) => `${row.capture.client}/${row.capture.scenario}`)).size).toBe(12);
    expect(rows.length).toBeGreaterThanOrEqual(12);
  });

  // Since the ingress work of issue 16 point 4, every request of every CLI decodes.
  it('records which clients get through today', () => {
    expect(firstOutcomes()).toEqual({
      claude: ['decoded anthropic-messages/v1'],
      codex: ['decoded openai-responses/v1'],
      gemini: ['decoded gemini-generate-content/v1'],
      opencode: ['decoded openai-chat/v1'],
    });
  });

  it('passes every decodable request through its own family, losing fields the work list names', () => {
    const outcomes = rows.map((row) => `${row.capture.client}:${row.passThrough?.outcome}`);
    expect(new Set(outcomes)).toEqual(new Set(['claude:sent', 'codex:sent', 'gemini:sent', 'opencode:sent']));
    // Issue 16 point 4: a same-dialect request keeps the agent-era fields when the target declares the facts.
    const dropped = (client: string): Set<string> => new Set(rows.filter((row) => row.capture.client === client).flatMap((row) => (row.passThrough?.outcome === 'sent' ? row.passThrough.dropped : [])));
    const kept = {
      claude: ['metadata.user_id', 'context_management', 'output_config.effort', 'thinking.display', 'tools.*.defer_loading'],
      codex: ['parallel_tool_calls', 'text.verbosity', 'reasoning.context'],
      gemini: ['generationConfig.thinkingConfig.thinkingLevel'],
    };
    for (const [client, fields] of Object.entries(kept)) {
      for (const field of fields) expect(dropped(client), `${client} ${field}`).not.toContain(field);
    }
    // The late system turn's blocks move to the top-level system (with their breakpoints): a move, listed as a drop.
    expect(dropped('claude')).toContain('messages.*.content.*.cache_control');
  });

  it('matches the committed work list in docs/agent-clients-ingress-gaps.md', async () => {
    await expect(renderIngressGaps(rows)).toMatchFileSnapshot(resolve(AGENT_CLIENT_FIXTURES_DIR, '../../../../../docs/agent-clients-ingress-gaps.md'));
  });
});
