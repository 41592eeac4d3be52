import { z } from 'zod';
import { protocolCapabilityV3Schema } from '../../capability/v3/protocol-capability-v3.js';

/**
 * A resolved target whose capability is V3. Same members as `ProviderDispatchTargetV2`; the engine accepts both
 * and reads a V2 capability as V3.
 */
export const providerDispatchTargetV3Schema = z.strictObject({
  /** Opaque provider identity (host catalogue data). Never used to choose behaviour. */
  provider: z.string().min(1).max(256),
  /** The model name the provider expects on the wire. */
  providerModel: z.string().min(1).max(256),
  /** Host-owned reference to the connection (credentials, base URL) this target must use. */
  connectionRef: z.string().min(1).max(512),
  /** What the target can do, including its protocol family. */
  capability: protocolCapabilityV3Schema,
});
export type ProviderDispatchTargetV3 = z.infer<typeof providerDispatchTargetV3Schema>;
