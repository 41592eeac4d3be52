import type { SyncProtocolSuiteEntryV1 } from '../../suite/protocol-suite-entry-v1.js';
import { createAgentCliAdapterFactory, type AgentCliAdapterOptionsV1 } from './adapter.js';
import { AGENT_CLI_PROTOCOL_FAMILY } from './protocol-family.js';

/**
 * The `agent-cli/v1` suite entry: a sync/stream family without direct HTTP. Its transport is a process transport
 * the host builds per target; the suite's HTTP transport metadata is required by the suite schema and never read
 * for this family (a CLI signs in with its own configuration folder, no header is sent by the host).
 */
export function createAgentCliSuiteEntryV1(options?: AgentCliAdapterOptionsV1): SyncProtocolSuiteEntryV1 {
  return {
    protocolFamily: AGENT_CLI_PROTOCOL_FAMILY,
    execution: 'sync',
    adapterFactory: createAgentCliAdapterFactory(options),
    directHttp: false,
    transportMetadata: { auth: { scheme: 'bearer' }, fixedHeaders: {} },
  };
}
