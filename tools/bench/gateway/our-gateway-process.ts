/**
 * The catalogue and governed key of our gateway in `npx --yes pnpm@12.4.2 bench:gateway` (which runs the built CLI
 * with them, as an operator does), and the same gateway from source for profiling, run as its own process: `startGateway` with a catalogue of two models on
 * the bench upstream (`bench-openai`: openai-chat, `bench-anthropic`: anthropic-messages), one client key and
 * limits wide enough for 256 requests at once. Arguments: the upstream port, and `--data-dir=<folder>` for
 * governance on (the embedded store there, one tenant whose limits never bind, its key used by the bench). Prints
 * `{"url":...}` (and `"apiKey"` with governance on) when listening.
 * Operator log lines go to stderr, as they would in production (the parent discards them).
 */
import { startGateway } from '@tokenforge/gateway';

/** The client key the bench sends to our gateway. */
export const BENCH_CLIENT_KEY = 'tfg-bench-client-key-0123456789abcdef';

/** The catalogue our gateway runs with, over the upstream at `port`. */
export function benchCatalogue(port: number): Record<string, unknown> {
  const target = (family: string, baseUrl: string) => ({
    provider: 'bench-upstream',
    family,
    model: 'bench-model',
    baseUrl,
    credentials: { apiKeyEnv: 'BENCH_UPSTREAM_KEY' },
    network: { allowLoopback: true },
  });
  return {
    version: 1,
    clientKeys: [{ id: 'bench', env: 'BENCH_CLIENT_KEY' }],
    models: [
      { name: 'bench-openai', taskKind: 'chat', targets: [target('openai-chat/v1', `http://127.0.0.1:${port}/v1`)] },
      { name: 'bench-anthropic', taskKind: 'chat', targets: [target('anthropic-messages/v1', `http://127.0.0.1:${port}`)] },
    ],
    limits: { maxConcurrentRequests: 10_000, maxAttempts: 1 },
  };
}

/** Tenant limits the bench never reaches. */
const WIDE_LIMITS = { requestsPerMinute: 1_000_000, tokensPerMinute: 1_000_000_000, concurrentRequests: 10_000, budget: { amountMicros: 1_000_000_000_000, currency: 'USD', period: 'month' } };

/** The admin key the bench gives a governed gateway (`TOKENFORGE_ADMIN_KEY`). */
export const BENCH_ADMIN_KEY = 'tfg-bench-admin-key-0123456789abcdef';

/** On a gateway with governance on: a tenant whose limits never bind, and a key of it (answered). */
export async function createGovernedKey(url: string, adminKey: string): Promise<string> {
  await admin(url, adminKey, '/tenants', { id: 'bench-governed', name: 'bench governed', limits: WIDE_LIMITS });
  const created = await admin(url, adminKey, '/keys', { tenantId: 'bench-governed' });
  if (typeof created.apiKey !== 'string') throw new Error('the admin API answered no key');
  return created.apiKey;
}

async function admin(base: string, adminKey: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${base}/admin/v1${path}`, { method: 'POST', headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (response.status >= 300) throw new Error(`admin POST ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

async function main(): Promise<void> {
  const port = Number(process.argv[2]);
  if (!Number.isInteger(port) || port <= 0) throw new Error('usage: our-gateway-process.ts <upstream port> [--data-dir=<folder>]');
  const dataDir = process.argv.find((argument) => argument.startsWith('--data-dir='))?.slice('--data-dir='.length);
  const gateway = await startGateway({
    catalogue: benchCatalogue(port),
    env: { BENCH_CLIENT_KEY, BENCH_UPSTREAM_KEY: 'bench-upstream-key' },
    ...(dataDir === undefined ? {} : { dataDir }),
  });
  const governance = gateway.governance;
  if (governance === undefined) {
    process.stdout.write(`${JSON.stringify({ url: gateway.url })}\n`);
  } else {
    process.stdout.write(`${JSON.stringify({ url: gateway.url, apiKey: await createGovernedKey(gateway.url, governance.adminKey) })}\n`);
  }
  process.on('SIGTERM', () => void gateway.close().then(() => process.exit(0)));
}

if (process.argv[1]?.endsWith('our-gateway-process.ts') === true) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
