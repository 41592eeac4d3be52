/**
 * Every place in a client-visible value that holds the canary (or a JWT shape): response metadata, terminal
 * results and failures, acceptance facts, stream events, and an engine error's code, phase and message. An
 * error's `cause` is diagnostic only (never client-visible) and is not scanned; everything else is, including
 * non-enumerable own string properties of errors.
 */
export function scanForCanaries(value: unknown, canary: string, path = '$', seen = new Set<object>()): string[] {
  if (typeof value === 'string') return value.includes(canary) || /eyJ[\w-]*\.[\w-]*\.[\w-]*/.test(value) ? [path] : [];
  if (typeof value !== 'object' || value === null || seen.has(value)) return [];
  seen.add(value);
  if (ArrayBuffer.isView(value)) return [];
  const keys = new Set(Object.keys(value));
  if (value instanceof Error) for (const key of ['message', 'name', 'code', 'phase']) keys.add(key);
  const found: string[] = [];
  for (const key of keys) {
    found.push(...scanForCanaries((value as Record<string, unknown>)[key], canary, `${path}.${key}`, seen));
  }
  return found;
}
