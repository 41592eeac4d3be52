import { startProviderSimulator, type ProviderSimulator } from '@tokenforge/provider-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { familyOfPath } from '../ingress-gaps/probe-ingress.js';
import { loadAgentClientCaptures } from '../test-support/load-agent-client-captures.js';

let simulator: ProviderSimulator;
beforeAll(async () => {
  simulator = await startProviderSimulator({ scriptedToolArguments: { exec: 'text(await tools.exec_command({ cmd: "ls" }));' } });
});
afterAll(async () => {
  await simulator.close();
});

/** The tool the recorder called in each client's `tool` capture, and what each captured request must get back. */
const EXPECTED: Record<string, { tool: string; answers: string[] }> = {
  claude: { tool: 'Glob', answers: ['call Glob', 'text'] },
  codex: { tool: 'exec', answers: ['call exec', 'text'] },
  gemini: { tool: 'list_directory', answers: ['text', 'call list_directory', 'text'] },
  opencode: { tool: 'glob', answers: ['text', 'call glob', 'text'] },
};

function authHeaders(family: string): Record<string, string> {
  const { anthropicApiKey, openAiApiKey, geminiApiKey } = simulator.credentials;
  if (family === 'anthropic-messages/v1') return { 'x-api-key': anthropicApiKey, 'anthropic-version': '2023-06-01' };
  if (family === 'gemini-generate-content/v1') return { 'x-goog-api-key': geminiApiKey };
  return { authorization: `Bearer ${openAiApiKey}` };
}

/** `call <name>` or `text`, read from the SSE or JSON answer in any of the four dialects. */
function answerKind(text: string): string {
  const values = text.startsWith('{') ? [JSON.parse(text) as unknown] : text.split('\n').filter((line) => line.startsWith('data: {')).map((line) => JSON.parse(line.slice(6)) as unknown);
  const names = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === 'object' && value !== null) {
      const node = value as Record<string, unknown>;
      if ((node.type === 'tool_use' || node.type === 'function_call' || node.type === 'custom_tool_call') && typeof node.name === 'string') names.add(node.name);
      const fn = (node.functionCall ?? node.function) as { name?: unknown } | undefined;
      if (typeof fn?.name === 'string') names.add(fn.name);
      Object.values(node).forEach(visit);
    }
  };
  visit(values);
  return names.size === 0 ? 'text' : `call ${[...names].join(',')}`;
}

describe('the scripted simulator answers the real clients\' captured tool round trips', () => {
  const captures = loadAgentClientCaptures().filter((capture) => capture.scenario === 'tool');

  it.each(captures.map((capture) => [capture.client, capture] as const))('%s: a call of the recorded tool, then text once its result is back', async (client, capture) => {
    const expected = EXPECTED[client];
    const answers: string[] = [];
    for (const request of capture.requests) {
      const family = familyOfPath(request.method, request.path);
      if (family === undefined) continue;
      const query = new URLSearchParams(Object.entries(request.query).filter(([name]) => name !== 'key')).toString();
      const response = await fetch(`${simulator.url}${request.path}${query === '' ? '' : `?${query}`}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-simulator-scenario': `scripted.${expected?.tool}`, ...authHeaders(family) },
        body: JSON.stringify(request.body),
      });
      expect(response.status, `${client} request ${answers.length}`).toBe(200);
      answers.push(answerKind(await response.text()));
    }
    expect(answers).toEqual(expected?.answers);
  });
});
