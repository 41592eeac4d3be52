import { builtinProtocolSuiteEntriesV1 } from './builtin-entries.js';
import { createTokenForgeProtocolSuiteV1, type TokenForgeProtocolSuiteV1 } from './create-protocol-suite-v1.js';

/**
 * The suite of every family TokenForge ships. Pass `suite.registry` to `createProtocolEngineV1`; the engine's
 * `protocolFamilies` is then the list of families a host can dispatch to.
 */
export function createBuiltinTokenForgeProtocolSuiteV1(): TokenForgeProtocolSuiteV1 {
  return createTokenForgeProtocolSuiteV1({ entries: builtinProtocolSuiteEntriesV1 });
}
