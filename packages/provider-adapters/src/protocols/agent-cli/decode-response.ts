import type { AdapterStreamPartV1, AdapterTerminalOutcomeV4 } from '@tokenforge/model-protocol';

/**
 * A sync answer: a CLI always streams, so a sync task reads the run's parts to their terminal (the fold already
 * put the text and reasoning into the terminal's result). Leaving the loop releases the run.
 */
export async function terminalOf(parts: AsyncIterable<AdapterStreamPartV1>): Promise<AdapterTerminalOutcomeV4> {
  for await (const part of parts) if (part.type === 'terminal') return part.outcome;
  return { status: 'failed', failure: { code: 'truncated-stream', retryable: true, providerCode: 'agent-cli.truncated' } };
}
