import { fixtureLines, readRecordedFixture } from '../recorded-fixtures.js';
import type { SimulatorScenario } from '../scenario.js';
import type { SimExchange, SseFrame } from '../sim-exchange.js';
import { planFor, type AnswerPlan } from './answer-plan.js';

/** A provider dialect of a sync/stream family, written by hand from the wire fact sheets. */
export interface ChatWire {
  /** The family folder holding its recorded fixtures. */
  readonly fixtureFolder: string;
  /** The dialect's error envelope for an HTTP error. */
  errorBody(status: number, message: string): unknown;
  /** A complete (non-stream) answer. */
  syncBody(plan: AnswerPlan, model: string): unknown;
  /** Every frame of a streamed answer; the last `terminalFrames` of them are the dialect's terminal marker(s). */
  streamFrames(plan: AnswerPlan, model: string): { readonly frames: readonly SseFrame[]; readonly terminalFrames: number };
  /** The frames of an error reported inside a 200 stream, after `framesBefore` frames. */
  midStreamErrorFrames(framesBefore: number): readonly SseFrame[];
  /** How one line of a `.chunks.txt` fixture goes on the wire. */
  recordedFrame(line: string): SseFrame;
  /** Frames the dialect sends after the recorded payloads (`[DONE]` for chat completions). */
  readonly recordedTrailer: readonly SseFrame[];
  /** The HTTP status a recorded JSON body goes with (its error envelope decides). */
  recordedStatus(body: unknown): number;
}

/** What one chat-like request asks for. */
export interface ChatRequestFacts {
  readonly stream: boolean;
  readonly model: string;
  /** Input tokens to report (a rough count of the request). */
  readonly inputTokens: number;
}

const RETRYABLE_STATUSES = new Set([429, 503, 529]);
const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' } as const;

/** Headers of a scenario error: `Retry-After` on 429, 503 and 529 (default one second). */
export function errorHeaders(status: number, retryAfterSeconds: number | undefined): Record<string, string> {
  if (retryAfterSeconds !== undefined) return { 'retry-after': String(retryAfterSeconds) };
  return RETRYABLE_STATUSES.has(status) ? { 'retry-after': '1' } : {};
}

/** A rough token count of a request body. */
export function roughTokens(bytes: number): number {
  return Math.max(1, Math.ceil(bytes / 16));
}

async function serveRecorded(wire: ChatWire, exchange: SimExchange, facts: ChatRequestFacts, name: string): Promise<void> {
  if (facts.stream) {
    const text = await readRecordedFixture(wire.fixtureFolder, `${name}.chunks.txt`);
    if (text === undefined) return exchange.json(404, wire.errorBody(404, 'simulator: no such recorded stream fixture'));
    exchange.head(200, SSE_HEADERS);
    exchange.writeFrames([...fixtureLines(text).map((line) => wire.recordedFrame(line)), ...wire.recordedTrailer]);
    return exchange.end();
  }
  const text = await readRecordedFixture(wire.fixtureFolder, `${name}.json`);
  if (text === undefined) return exchange.json(404, wire.errorBody(404, 'simulator: no such recorded body fixture'));
  let status = 200;
  try {
    status = wire.recordedStatus(JSON.parse(text));
  } catch {
    status = 200;
  }
  exchange.text(status, text);
}

async function serveStream(wire: ChatWire, exchange: SimExchange, plan: AnswerPlan, facts: ChatRequestFacts, scenario: SimulatorScenario): Promise<void> {
  const { frames, terminalFrames } = wire.streamFrames(plan, facts.model);
  const body = frames.slice(0, frames.length - terminalFrames);
  exchange.head(200, SSE_HEADERS);
  switch (scenario.kind) {
    case 'mid-stream-error': {
      const prefix = body.slice(0, Math.max(1, body.length - 1));
      exchange.writeFrames([...prefix, ...wire.midStreamErrorFrames(prefix.length)]);
      return exchange.end();
    }
    case 'truncated':
      exchange.writeFrames(body);
      return exchange.cut();
    case 'stall':
      exchange.writeFrames(frames.slice(0, 1));
      await exchange.wait(scenario.stallMs);
      exchange.writeFrames(frames.slice(1));
      exchange.reportUsage(plan.usage);
      return exchange.end();
    default:
      exchange.writeFrames(frames);
      exchange.reportUsage(plan.usage);
      return exchange.end();
  }
}

async function serveSync(wire: ChatWire, exchange: SimExchange, plan: AnswerPlan, facts: ChatRequestFacts, scenario: SimulatorScenario): Promise<void> {
  const text = JSON.stringify(wire.syncBody(plan, facts.model));
  switch (scenario.kind) {
    case 'mid-stream-error':
      return exchange.json(500, wire.errorBody(500, 'The server had an error while processing your request.'));
    case 'truncated': {
      // The head promises the whole body; the connection ends halfway.
      exchange.head(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
      exchange.write(text.slice(0, Math.floor(text.length / 2)));
      return exchange.destroy();
    }
    case 'stall': {
      const half = Math.floor(text.length / 2);
      exchange.head(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
      exchange.write(text.slice(0, half));
      await exchange.wait(scenario.stallMs);
      exchange.write(text.slice(half));
      exchange.reportUsage(plan.usage);
      return exchange.end();
    }
    default:
      exchange.reportUsage(plan.usage);
      return exchange.text(200, text);
  }
}

/** Serves a chat-like request in `wire`'s dialect according to `scenario` (or to `plan`, when the caller made one). */
export async function serveChat(wire: ChatWire, exchange: SimExchange, facts: ChatRequestFacts, scenario: SimulatorScenario, plan?: AnswerPlan): Promise<void> {
  switch (scenario.kind) {
    case 'error':
      return exchange.json(scenario.status, wire.errorBody(scenario.status, 'Simulated provider error.'), errorHeaders(scenario.status, scenario.retryAfterSeconds));
    case 'recorded':
      return serveRecorded(wire, exchange, facts, scenario.name);
    case 'slow-first-byte':
      await exchange.wait(scenario.delayMs);
      break;
    default:
      break;
  }
  const answer = plan ?? planFor(scenario, facts.inputTokens);
  return facts.stream ? serveStream(wire, exchange, answer, facts, scenario) : serveSync(wire, exchange, answer, facts, scenario);
}
