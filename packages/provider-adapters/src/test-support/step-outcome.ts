/**
 * What a stream machine made of one frame, in a form two machines' results can be compared by: its step, or the error
 * it threw (by class and message). The fast-path property tests hold a fast path's outcome equal to the general one's.
 */
export function stepOutcome(run: () => unknown): unknown {
  try {
    return { step: run() };
  } catch (error) {
    return { threw: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}
