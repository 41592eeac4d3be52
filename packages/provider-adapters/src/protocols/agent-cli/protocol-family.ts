import type { ProtocolCapabilityV3 } from '@tokenforge/model-protocol';

/** The protocol family this folder implements: a coding-agent CLI run as a provider over a process transport. */
export const AGENT_CLI_PROTOCOL_FAMILY = 'agent-cli/v1';

/**
 * What an `agent-cli/v1` target serves: chat, sync and stream, reasoning as the CLI streams it. No client tools
 * (a CLI runs its own; the engine refuses client-declared tools by this capability), no image, document or audio
 * input, no structured output, no hosted tools a client may ask for.
 */
export const AGENT_CLI_CAPABILITY: ProtocolCapabilityV3 = {
  protocolFamily: AGENT_CLI_PROTOCOL_FAMILY,
  executionMode: 'stream-capable',
  taskKinds: ['chat'],
  tools: false,
  imageInput: false,
  documentInput: false,
  audioInput: false,
  reasoning: true,
};
