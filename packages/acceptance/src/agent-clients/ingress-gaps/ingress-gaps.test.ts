import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENT_CLIENT_FIXTURES_DIR, loadAgentClientCaptures } from '../test-support/load-agent-client-captures.js';
import { probeCaptures, renderIngressGaps } from './render-ingress-gaps.js';

const rows = probeCaptures(loadAgentClientCaptures());

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

  // The state before the ingress work of issue 16 point 4: Claude Code and Codex are refused at the first field.
  // This changes (and must be updated) when that work lands.
  it('records which clients get through today', () => {
    expect(firstOutcomes()).toEqual({
      claude: ['refused unsupported-feature messages.*.role'],
      codex: ['refused unsupported-feature input.*.type'],
      gemini: ['decoded gemini-generate-content/v1'],
      opencode: ['decoded openai-chat/v1'],
    });
  });

  it('matches the committed work list in docs/agent-clients-ingress-gaps.md', async () => {
    await expect(renderIngressGaps(rows)).toMatchFileSnapshot(resolve(AGENT_CLIENT_FIXTURES_DIR, '../../../../../docs/agent-clients-ingress-gaps.md'));
  });
});
