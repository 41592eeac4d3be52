/**
 * Our gateway for `npx --yes pnpm@12.4.2 bench:gateway`, run as its own process: `startGateway` with a catalogue of two models on
 * the bench upstream (`bench-openai`: openai-chat, `bench-anthropic`: anthropic-messages), one client key and
 * limits wide enough for 256 requests at once. Argument: the upstream port. Prints `{"url":...}` when listening.
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

async function main(): Promise<void> {
  const port = Number(process.argv[2]);
  if (!Number.isInteger(port) || port <= 0) throw new Error('usage: our-gateway-process.ts <upstream port>');
  const gateway = await startGateway({
    catalogue: benchCatalogue(port),
    env: { BENCH_CLIENT_KEY, BENCH_UPSTREAM_KEY: 'bench-upstream-key' },
  });
  process.stdout.write(`${JSON.stringify({ url: gateway.url })}\n`);
  process.on('SIGTERM', () => void gateway.close().then(() => process.exit(0)));
}

if (process.argv[1]?.endsWith('our-gateway-process.ts') === true) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
