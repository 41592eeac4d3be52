/** A pino destination that keeps every operator log line (as text) for assertions. */
export interface LogCapture {
  readonly lines: string[];
  write(line: string): void;
  /** The parsed request lines. */
  requests(): Record<string, unknown>[];
}

export function createLogCapture(): LogCapture {
  const lines: string[] = [];
  return {
    lines,
    write(line: string) {
      lines.push(line);
    },
    requests() {
      return lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.message === 'request');
    },
  };
}

/** Waits until `predicate` holds (polling), for log lines written when a stream closes. */
export async function eventually(predicate: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * A reader of the next operator request line of `log`: each call waits for a line written after the last one it
 * returned (a request's line is written when its answer ends) and returns it.
 */
export function nextRequestLineReader(log: LogCapture): () => Promise<Record<string, unknown>> {
  let seen = log.requests().length;
  return async () => {
    await eventually(() => log.requests().length > seen);
    seen = log.requests().length;
    return log.requests().at(-1) as Record<string, unknown>;
  };
}
