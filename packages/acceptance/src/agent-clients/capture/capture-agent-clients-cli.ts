/**
 * `npx --yes pnpm@12.4.2 capture:agent-clients [--client claude,codex] [--scenario plain,tool]`: installs (or reuses)
 * the pinned CLIs, runs each one non-interactively against the request recorder in each scenario, and writes the
 * sanitized captures to `src/agent-clients/__fixtures__/<cli>/<scenario>.json` (raw ones stay in the run folder
 * under the cache directory, never in the clone).
 *
 * `... capture:agent-clients --from-run <run folder>` sanitizes an earlier run's raw captures again without running
 * any CLI (the sanitizer is deterministic, so the fixtures come out the same).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startRequestRecorder, type RecordedRequest } from '../recorder/request-recorder.js';
import { sanitizeCapture } from '../sanitize/sanitize-capture.js';
import { AGENT_CLIENT_SCENARIOS, AGENT_CLIENTS, type AgentClient, type AgentClientScenario } from './agent-client-runs.js';
import { installAgentClients, runAgentClient } from './run-agent-client.js';
import type { AgentClientCapture } from './agent-client-capture.js';

const here = dirname(fileURLToPath(import.meta.url));
const fixturesDir = resolve(here, '../__fixtures__');

function option(name: string): string[] | undefined {
  const position = process.argv.indexOf(name);
  return position < 0 ? undefined : (process.argv[position + 1] ?? '').split(',');
}

/** Sanitizes one raw capture of a run folder into its committed fixture. */
function writeFixture(runRoot: string, client: string, scenario: string, extraPaths: readonly string[]): void {
  const folder = join(runRoot, client, scenario);
  const meta = JSON.parse(readFileSync(join(folder, 'meta.json'), 'utf8')) as Omit<AgentClientCapture, 'requests'>;
  const raw = JSON.parse(readFileSync(join(folder, 'raw.json'), 'utf8')) as RecordedRequest[];
  // Longest first, so the run folder is replaced before the cache folder that contains it.
  const paths = [runRoot, ...extraPaths].sort((left, right) => right.length - left.length);
  const capture: AgentClientCapture = { ...meta, requests: raw.map((request) => sanitizeCapture(request, paths)) };
  mkdirSync(join(fixturesDir, client), { recursive: true });
  writeFileSync(join(fixturesDir, client, `${scenario}.json`), `${JSON.stringify(capture, null, 2)}\n`);
}

async function main(): Promise<void> {
  const fromRun = option('--from-run')?.[0];
  if (fromRun !== undefined) {
    const runRoot = resolve(fromRun);
    for (const client of AGENT_CLIENTS) {
      for (const scenario of AGENT_CLIENT_SCENARIOS) {
        if (existsSync(join(runRoot, client, scenario, 'meta.json'))) writeFixture(runRoot, client, scenario, [dirname(dirname(runRoot))]);
      }
    }
    return;
  }
  const clients = (option('--client') ?? [...AGENT_CLIENTS]) as AgentClient[];
  const scenarios = (option('--scenario') ?? [...AGENT_CLIENT_SCENARIOS]) as AgentClientScenario[];
  const installed = installAgentClients();
  const runRoot = join(dirname(installed.cacheDir), 'runs', new Date().toISOString().replace(/[:.]/g, '-'));
  const recorder = await startRequestRecorder();
  try {
    for (const client of clients) {
      const cli = installed.clients[client];
      if (cli.bin === null) {
        console.error(`${client}: not installed here (${cli.reason ?? 'unknown'})`);
        continue;
      }
      for (const scenario of scenarios) {
        const folder = join(runRoot, client, scenario);
        let first = 0;
        const result = await runAgentClient({
          installed,
          client,
          scenario,
          baseUrl: recorder.url,
          folder,
          before: (toolPreferences) => {
            recorder.toolPreferences = scenario === 'tool' ? toolPreferences : [];
            first = recorder.requests.length;
          },
        });
        const requests = recorder.requests.slice(first);
        writeFileSync(join(folder, 'raw.json'), `${JSON.stringify(requests, null, 2)}\n`);
        console.error(`${client}/${scenario}: exit ${result.code}, ${requests.length} requests, ${result.seconds} s (${folder})`);
        const meta: Omit<AgentClientCapture, 'requests'> = { client, package: cli.package, version: cli.version ?? 'unknown', scenario, capturedAt: new Date().toISOString().slice(0, 10), exitCode: result.code };
        writeFileSync(join(folder, 'meta.json'), `${JSON.stringify(meta, null, 2)}\n`);
        writeFixture(runRoot, client, scenario, [dirname(installed.cacheDir)]);
      }
    }
  } finally {
    await recorder.close();
  }
}

main().catch((error: unknown) => {
  console.error('capture failed:', error instanceof Error ? error.message : typeof error);
  process.exitCode = 1;
});
