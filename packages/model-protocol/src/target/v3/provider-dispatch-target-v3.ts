import type { z } from 'zod';
import { protocolCapabilityV3Schema } from '../../capability/v3/protocol-capability-v3.js';
import { providerDispatchTargetV2Schema } from '../v2/provider-dispatch-target-v2.js';

/**
 * A resolved target whose capability is V3. Same members as `ProviderDispatchTargetV2`; the engine accepts both
 * and reads a V2 capability as V3.
 */
export const providerDispatchTargetV3Schema = providerDispatchTargetV2Schema.extend({
  /** What the target can do, including its protocol family. */
  capability: protocolCapabilityV3Schema,
});
export type ProviderDispatchTargetV3 = z.infer<typeof providerDispatchTargetV3Schema>;
