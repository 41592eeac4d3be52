import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENT_CLIENT_SCENARIOS, AGENT_CLIENTS, FAKE_API_KEY } from '../capture/agent-client-runs.js';
import { REDACTED } from '../recorder/request-recorder.js';
import { AGENT_CLIENT_FIXTURES_DIR, loadAgentClientCaptures } from '../test-support/load-agent-client-captures.js';
import { isFiller, OWN_TEXTS } from './sanitize-capture.js';

/** Longest non-filler string with whitespace a capture may hold (ids, paths and keywords have none). */
const LONGEST_KEPT_TEXT = 30;

function offendingStrings(value: unknown, path: string, out: string[]): void {
  if (typeof value === 'string') {
    if (/\s/.test(value) && value.length > LONGEST_KEPT_TEXT && !isFiller(value) && !OWN_TEXTS.has(value)) out.push(path);
    return;
  }
  if (Array.isArray(value)) value.forEach((item, index) => offendingStrings(item, `${path}.${index}`, out));
  else if (typeof value === 'object' && value !== null) for (const [key, item] of Object.entries(value)) offendingStrings(item, `${path}.${key}`, out);
}

const captures = loadAgentClientCaptures();

describe('committed agent-client captures', () => {
  it('cover every CLI and scenario, at the versions pinned in tools/agent-clients', () => {
    const pinned = JSON.parse(readFileSync(resolve(AGENT_CLIENT_FIXTURES_DIR, '../../../../../tools/agent-clients/package.json'), 'utf8')) as { dependencies: Record<string, string>; optionalDependencies: Record<string, string> };
    const versions: Record<string, string | undefined> = { ...pinned.dependencies, 'opencode-ai': pinned.optionalDependencies['opencode-linux-x64'] };
    expect(captures.map((capture) => `${capture.client}/${capture.scenario}`).sort()).toEqual(AGENT_CLIENTS.flatMap((client) => AGENT_CLIENT_SCENARIOS.map((scenario) => `${client}/${scenario}`)).sort());
    for (const capture of captures) {
      expect(capture.version, capture.client).toBe(versions[capture.package]);
      expect(capture.exitCode, `${capture.client}/${capture.scenario}`).toBe(0);
      expect(capture.requests.length).toBeGreaterThan(0);
    }
  });

  it('hold no long natural-language string that is not filler or our own prompt', () => {
    const planted: string[] = [];
    offendingStrings({ system: [{ text: 'You are a careful agent; follow the rules.' }], name: 'Glob' }, 'planted', planted);
    expect(planted).toEqual(['planted.system.0.text']);
    for (const capture of captures) {
      const offending: string[] = [];
      capture.requests.forEach((request, index) => offendingStrings(request.body, `${capture.client}/${capture.scenario}#${index}`, offending));
      expect(offending).toEqual([]);
    }
  });

  it('hold no secret: credential headers and query keys are redacted, the fake key appears nowhere', () => {
    for (const capture of captures) {
      const text = JSON.stringify(capture);
      expect(text).not.toContain(FAKE_API_KEY);
      for (const request of capture.requests) {
        for (const name of ['authorization', 'x-api-key', 'x-goog-api-key']) if (name in request.headers) expect(request.headers[name]).toBe(REDACTED);
      }
    }
  });

  it('were sanitized with their tool round trip intact: each tool scenario sends a tool result back', () => {
    const markers: Record<string, string> = { claude: '"tool_result"', codex: '"custom_tool_call_output"', gemini: '"functionResponse"', opencode: '"role":"tool"' };
    for (const capture of captures.filter((candidate) => candidate.scenario === 'tool')) {
      expect(capture.requests.some((request) => JSON.stringify(request.body).includes(markers[capture.client] ?? '?')), capture.client).toBe(true);
    }
  });
});
