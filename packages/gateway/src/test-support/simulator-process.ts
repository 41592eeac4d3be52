/**
 * A provider simulator in a process of its own, for tests that kill or slow one upstream: accepts the OpenAI key in
 * `SIMULATOR_OPENAI_KEY`, listens on `SIMULATOR_PORT` (default: a free port) and prints one JSON line `{ "url", "openAiBaseUrl" }`. Runs until SIGTERM or SIGKILL.
 */
import { startProviderSimulator } from '@tokenforge/provider-simulator';

const simulator = await startProviderSimulator({
  port: Number(process.env.SIMULATOR_PORT ?? '0'),
  credentials: { openAiApiKey: process.env.SIMULATOR_OPENAI_KEY ?? 'sk-sim-test-0123456789' },
});
console.log(JSON.stringify({ url: simulator.url, openAiBaseUrl: simulator.baseUrlFor('openai-chat/v1') }));
process.once('SIGTERM', () => void simulator.close().then(() => process.exit(0)));
