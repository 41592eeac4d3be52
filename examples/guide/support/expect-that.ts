/** Throws when an example's expectation does not hold, so a broken example exits non-zero. */
export function expectThat(condition: boolean, what: string): asserts condition {
  if (!condition) throw new Error(`unexpected: ${what}`);
}
