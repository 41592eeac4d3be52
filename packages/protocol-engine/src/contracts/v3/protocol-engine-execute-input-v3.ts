import type { ProtocolEngineExecuteInputV1 } from '../v1/protocol-engine-contracts-v1.js';
import type { ProtocolEngineObserverV3 } from './protocol-engine-observer-v3.js';

/** The execute input with the revision's optional ports; every V1 input is a V3 input. */
export interface ProtocolEngineExecuteInputV3 extends ProtocolEngineExecuteInputV1 {
  /** Listens to this execution. */
  readonly observer?: ProtocolEngineObserverV3;
}
