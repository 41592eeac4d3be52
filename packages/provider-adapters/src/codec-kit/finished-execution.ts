import type {
  AdapterStreamPartV1,
  AdapterTerminalOutcomeV4,
  ProviderAcceptanceFacts,
  ProviderAdapterExecutionV1,
  ProviderResponseMetadataV3,
} from '@tokenforge/model-protocol';

async function* onlyTerminal(outcome: AdapterTerminalOutcomeV4): AsyncGenerator<AdapterStreamPartV1, void, undefined> {
  yield { type: 'terminal', outcome };
}

/**
 * An execution that is already over (a failure before any stream, or a whole sync body): a `response` for a sync
 * task, or a `stream` whose only part is the terminal for a stream task, so a stream task always gets a stream.
 */
export function finishedExecution(
  stream: boolean,
  acceptance: ProviderAcceptanceFacts,
  metadata: ProviderResponseMetadataV3,
  terminal: AdapterTerminalOutcomeV4,
): ProviderAdapterExecutionV1 {
  return stream
    ? { kind: 'stream', acceptance, responseMetadata: metadata, parts: onlyTerminal(terminal) }
    : { kind: 'response', acceptance, responseMetadata: metadata, terminal };
}
