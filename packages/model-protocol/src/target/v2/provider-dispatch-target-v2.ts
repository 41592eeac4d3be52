import { z } from 'zod';
import { protocolCapabilityV2Schema } from '../../capability/v2/protocol-capability-v2.js';

/**
 * A target the host resolved: who serves the task and what it can do. Only dispatch facts:
 * no credentials, base URLs, tenants or prices. `provider` is opaque identity data, never a dispatch key.
 */
export const providerDispatchTargetV2Schema = z.strictObject({
  /** Opaque provider identity (host catalogue data). Never used to choose behaviour. */
  provider: z.string().min(1).max(256),
  /** The model name the provider expects on the wire. */
  providerModel: z.string().min(1).max(256),
  /** Host-owned reference to the connection (credentials, base URL) this target must use. */
  connectionRef: z.string().min(1).max(512),
  /** What the target can do, including its protocol family. */
  capability: protocolCapabilityV2Schema,
});
export type ProviderDispatchTargetV2 = z.infer<typeof providerDispatchTargetV2Schema>;
