/**
 * What the host's transport needs for `agent-cli/v1`: a process transport (`ProviderProcessTransportV4`), never an
 * HTTP one. There is no authentication scheme and no header: a CLI signs in with its own configuration folder.
 */
export const AGENT_CLI_TRANSPORT_METADATA = { transport: 'process/v4' } as const;
