import { readRecordedFixture } from '../recorded-fixtures.js';
import type { SimulatorScenario } from '../scenario.js';
import type { SimExchange } from '../sim-exchange.js';
import { errorHeaders } from './serve-chat.js';

/** A sync JSON surface (embeddings, images, rerank): its error envelope and recorded fixtures. */
export interface JsonWire {
  readonly fixtureFolder: string;
  errorBody(status: number, message: string): unknown;
  recordedStatus(body: unknown): number;
}

/**
 * Serves a sync JSON answer under a scenario: provider errors, recorded bodies, slow first byte, a stalled or
 * truncated body; every other scenario gets `answer()` (a `mid-stream-error` is a 500 here, there is no stream).
 */
export async function serveJson(wire: JsonWire, exchange: SimExchange, scenario: SimulatorScenario, answer: () => { status: number; body: unknown }): Promise<void> {
  switch (scenario.kind) {
    case 'error':
      return exchange.json(scenario.status, wire.errorBody(scenario.status, 'Simulated provider error.'), errorHeaders(scenario.status, scenario.retryAfterSeconds));
    case 'mid-stream-error':
      return exchange.json(500, wire.errorBody(500, 'Simulated provider error.'));
    case 'recorded': {
      const text = await readRecordedFixture(wire.fixtureFolder, `${scenario.name}.json`);
      if (text === undefined) return exchange.json(404, wire.errorBody(404, 'simulator: no such recorded body fixture'));
      let status = 200;
      try {
        status = wire.recordedStatus(JSON.parse(text));
      } catch {
        status = 200;
      }
      return exchange.text(status, text);
    }
    case 'slow-first-byte':
      await exchange.wait(scenario.delayMs);
      break;
    default:
      break;
  }
  const { status, body } = answer();
  const text = JSON.stringify(body);
  if (status !== 200 || (scenario.kind !== 'truncated' && scenario.kind !== 'stall')) return exchange.text(status, text);
  const half = Math.floor(text.length / 2);
  exchange.head(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
  exchange.write(text.slice(0, half));
  if (scenario.kind === 'truncated') return exchange.destroy();
  await exchange.wait(scenario.stallMs);
  exchange.write(text.slice(half));
  return exchange.end();
}
