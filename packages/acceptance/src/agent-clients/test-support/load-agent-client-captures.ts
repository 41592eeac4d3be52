import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentClientCapture } from '../capture/agent-client-capture.js';

/** The committed captures folder. */
export const AGENT_CLIENT_FIXTURES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../__fixtures__');

/** Every committed capture, sorted by client then scenario order (plain, tool, thinking). */
export function loadAgentClientCaptures(): AgentClientCapture[] {
  const order = ['plain', 'tool', 'thinking'];
  const captures: AgentClientCapture[] = [];
  for (const client of readdirSync(AGENT_CLIENT_FIXTURES_DIR, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort()) {
    const files = readdirSync(join(AGENT_CLIENT_FIXTURES_DIR, client)).filter((file) => file.endsWith('.json'));
    files.sort((left, right) => order.indexOf(left.replace('.json', '')) - order.indexOf(right.replace('.json', '')));
    for (const file of files) captures.push(JSON.parse(readFileSync(join(AGENT_CLIENT_FIXTURES_DIR, client, file), 'utf8')) as AgentClientCapture);
  }
  return captures;
}
