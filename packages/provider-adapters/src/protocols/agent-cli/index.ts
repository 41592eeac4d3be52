export { AGENT_CLI_PROTOCOL_FAMILY } from './protocol-family.js';
export { createAgentCliAdapterFactory, agentCliMapping } from './adapter.js';
export { createAgentCliSuiteEntryV1 } from './suite-entry.js';
export { AGENT_CLI_TRANSPORT_METADATA } from './transport-metadata.js';
export type { AgentCliAdapterOptionsV1 } from './adapter.js';
export { AGENT_CLI_CAPABILITY } from './protocol-family.js';
export { AGENT_CLI_NAMES } from './cli-mapping.js';
export type { AgentCliName, CliMapping, CliRunPlan, RenderedPrompt } from './cli-mapping.js';
export type { CliFrame } from './cli-frame.js';
