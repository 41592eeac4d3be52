/**
 * The inputs of the support matrix: the builtin suite's entries and the builtin conformance cases.
 *
 * The case map is not exported from `@tokenforge/provider-adapters` (its root holds what embedders use), so this
 * tool reads it from the package's sources, like the benchmarks under `tools/bench` read codec internals. Tools are
 * not packages: the dependency rules that forbid deep imports apply to `packages/` only.
 */
import { createBuiltinTokenForgeProtocolSuiteV1, type ProtocolSuiteEntryV1 } from '@tokenforge/provider-adapters';
import { builtinConformanceCasesV1 } from '../../packages/provider-adapters/src/conformance/conformance-cases.js';
import type { SupportMatrixCases } from './support-matrix.js';

/** The entries of `createBuiltinTokenForgeProtocolSuiteV1()` and the conformance cases of the builtin families. */
export function loadBuiltinSupportMatrixSources(): { readonly entries: readonly ProtocolSuiteEntryV1[]; readonly cases: SupportMatrixCases } {
  return { entries: createBuiltinTokenForgeProtocolSuiteV1().entries, cases: builtinConformanceCasesV1 };
}
