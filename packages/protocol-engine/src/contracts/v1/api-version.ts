/** The stable identifier of the V1 engine contract. A breaking change ships as a new identifier, never as an edit. */
export const PROTOCOL_ENGINE_API_VERSION = 'tokenforge-protocol-engine/v1' as const;

/** The type of {@link PROTOCOL_ENGINE_API_VERSION}. */
export type ProtocolEngineApiVersion = typeof PROTOCOL_ENGINE_API_VERSION;
