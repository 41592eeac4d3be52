import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { SimulatorOpaqueHistory } from './wire/opaque-history.js';
import type { SimulatorCompactionRequest } from './wire/compaction-request.js';

/** Largest request body the simulator reads. */
export const MAX_REQUEST_BYTES = 32 * 1024 * 1024;

/** One SSE frame: optional `event:` name and the `data:` payload (one line). */
export interface SseFrame {
  readonly event?: string;
  readonly data: string;
}

/** Token counts an answer reported, as the simulator served them. */
export interface SimulatorServedUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly reasoningTokens: number;
}

/** A request as the protocol handlers see it. */
export interface SimRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** Serializes one SSE frame. */
export function formatSseFrame(frame: SseFrame): string {
  return frame.event === undefined ? `data: ${frame.data}\n\n` : `event: ${frame.event}\ndata: ${frame.data}\n\n`;
}

/**
 * The response side of one exchange. Every wait ends early when the client goes away or the simulator closes, so
 * a stalled answer never keeps the process alive.
 */
export class SimExchange {
  readonly request: SimRequest;
  private readonly response: ServerResponse;
  private readonly shutdown: Promise<void>;
  private isClosed = false;
  private served: SimulatorServedUsage | undefined;
  /** The compaction payloads and stored reasoning ids the request sent back, when it sent any. */
  opaqueHistory: SimulatorOpaqueHistory | undefined;
  /** The server-side compaction the request asked for, when it asked. */
  compactionRequest: SimulatorCompactionRequest | undefined;

  constructor(request: SimRequest, response: ServerResponse, shutdown: Promise<void>) {
    this.request = request;
    this.response = response;
    this.shutdown = shutdown;
    response.once('close', () => {
      this.isClosed = true;
    });
  }

  /** Whether the client left (or the simulator is closing). */
  get gone(): boolean {
    return this.isClosed;
  }

  /** The usage of the answer written in full, if it carried usage (see {@link SimExchange.reportUsage}). */
  get servedUsage(): SimulatorServedUsage | undefined {
    return this.served;
  }

  /** Records that the whole answer, usage included, was written (a cut or failed answer never reports). */
  reportUsage(usage: SimulatorServedUsage): void {
    if (!this.isClosed) this.served = usage;
  }

  /** Waits `ms` (or until the exchange closes); `undefined` waits only for the close. */
  async wait(ms: number | undefined): Promise<void> {
    if (ms === 0 || this.isClosed) return;
    let timer: NodeJS.Timeout | undefined;
    let onClose: (() => void) | undefined;
    const elapsed = ms === undefined ? new Promise<void>(() => {}) : new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
    const closed = new Promise<void>((resolve) => {
      onClose = resolve;
      this.response.once('close', resolve);
    });
    await Promise.race([elapsed, closed, this.shutdown]);
    if (timer !== undefined) clearTimeout(timer);
    if (onClose !== undefined) this.response.off('close', onClose);
  }

  /** Sends a JSON body. */
  json(status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void {
    this.text(status, JSON.stringify(body), headers);
  }

  /** Sends a complete body (JSON text by default). */
  text(status: number, text: string, headers: Readonly<Record<string, string>> = {}): void {
    if (this.isClosed) return;
    const bytes = Buffer.from(text, 'utf8');
    this.response.writeHead(status, { 'content-type': 'application/json', 'content-length': String(bytes.length), ...headers });
    this.response.end(bytes);
  }

  /** Sends a response head for a body written piece by piece. */
  head(status: number, headers: Readonly<Record<string, string>>): void {
    if (this.isClosed) return;
    this.response.writeHead(status, headers);
    this.response.flushHeaders();
  }

  /** Writes body text (after {@link head}). */
  write(text: string): void {
    if (!this.isClosed) this.response.write(text);
  }

  /** Writes many SSE frames in one socket write. */
  writeFrames(frames: readonly SseFrame[]): void {
    if (frames.length === 0 || this.isClosed) return;
    let text = '';
    for (const frame of frames) text += formatSseFrame(frame);
    this.response.write(text);
  }

  /** Ends the body normally. */
  end(): void {
    if (!this.isClosed) this.response.end();
  }

  /**
   * Ends the body after what was written, the way a dropped connection would for a streamed answer: a chunked body
   * ends cleanly at an SSE boundary (the dialect's terminal marker is what is missing), a sized body is cut short.
   */
  cut(): void {
    if (!this.isClosed) this.response.end();
  }

  /** Resets the connection. */
  destroy(): void {
    this.response.destroy();
  }
}

/** Reads a request body up to {@link MAX_REQUEST_BYTES}; `undefined` when it is larger. */
export async function readRequestBody(request: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_REQUEST_BYTES) return undefined;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** Parses a JSON request body; `undefined` when it is not a JSON object. */
export function parseJsonObject(body: Buffer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The first value of a header. */
export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
