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
