import {
  providerAsyncJobListInputV2Schema,
  providerJobIdSchema,
  type AsyncJobOperationV1,
  type ProviderAdapterTargetV1,
  type ProviderAsyncJobAdapterV1,
  type ProviderAsyncJobListInputV2,
  type ProviderTransport,
} from '@tokenforge/model-protocol';
import { PROTOCOL_ENGINE_API_VERSION } from '../../contracts/v1/api-version.js';
import type {
  ProtocolEngineAsyncJobCancellationV1,
  ProtocolEngineAsyncJobInputV1,
  ProtocolEngineAsyncJobListRequestV1,
  ProtocolEngineAsyncJobListResultV1,
  ProtocolEngineAsyncJobObservationV1,
  ProtocolEngineAsyncJobsV1,
} from '../../contracts/v1/protocol-engine-contracts-v1.js';
import { PROTOCOL_ENGINE_ERROR_CODES_V1 as CODES, engineError } from '../../error/v1/protocol-engine-error-v1.js';
import { adapterCallFailed, bindTransport } from '../../engine/v1/bind-and-call.js';
import { guardPublicCall, type CallStage } from '../../engine/v1/guard-public-call.js';
import { isPathSafeProviderJobId } from './path-safe-provider-job-id.js';
import type { RegistrySnapshot } from '../../registry/v1/snapshot-registry.js';
import { checkListPage, checkSnapshot, outputInvalid, unwrapOperationResult } from '../../validation/v1/check-adapter-output.js';
import type { DiagnosticSink } from '../../engine/v3/diagnostic-sink.js';
import { watchOf } from '../../engine/v3/execution-watch.js';
import { describePath, isRecord, requireSignal, snapshotBinding, throwIfAborted } from '../../validation/v1/input-guards.js';

interface OperationContext {
  readonly adapter: ProviderAsyncJobAdapterV1;
  readonly target: ProviderAdapterTargetV1;
  readonly transport: ProviderTransport;
  readonly signal: AbortSignal;
  readonly diagnostics: DiagnosticSink | undefined;
}

/**
 * The job operations over one registry snapshot. Each operation validates its input, checks the target is an
 * async-job target of a declared family whose factory declares the operation, and only then binds the transport.
 */
export function createAsyncJobs(registry: RegistrySnapshot): ProtocolEngineAsyncJobsV1 {
  async function prepare<T>(
    stage: CallStage,
    operation: AsyncJobOperationV1,
    input: unknown,
    readInput: (input: Record<string, unknown>) => T,
  ) {
    if (!isRecord(input)) throw engineError(CODES.INPUT_INVALID, `the job ${operation} input must be an object`);
    const signal = requireSignal(input);
    const binding = snapshotBinding(input.binding);
    const request = readInput(input);
    const diagnostics = watchOf(input.observer)?.diagnostics;
    const capability = binding.target.capability;
    registry.assertDeclared(capability.protocolFamily);
    if (capability.executionMode !== 'async-job') {
      throw engineError(CODES.CAPABILITY_UNSUPPORTED, 'job operations need an async-job target');
    }
    throwIfAborted(signal);
    stage.code = CODES.FACTORY_MISMATCH;
    const { adapter, operations } = registry.createAsyncAdapter(capability.protocolFamily);
    if (!operations.has(operation)) {
      throw engineError(CODES.CAPABILITY_UNSUPPORTED, `the protocol family does not support the ${operation} job operation`);
    }
    stage.code = CODES.ADAPTER_OUTPUT_INVALID;
    const transport = await bindTransport(binding, signal);
    const target: ProviderAdapterTargetV1 = Object.freeze({ providerModel: binding.target.providerModel, capability });
    const context: OperationContext = { adapter, target, transport, signal, diagnostics };
    return { context, request };
  }

  async function call(context: OperationContext, run: () => Promise<unknown> | undefined): Promise<unknown> {
    let raw: unknown;
    try {
      raw = await run();
    } catch (error) {
      throw adapterCallFailed(error, context.signal);
    } finally {
      context.diagnostics?.open(undefined);
    }
    return unwrapOperationResult(raw);
  }

  const jobs: ProtocolEngineAsyncJobsV1 = {
    get: (input: ProtocolEngineAsyncJobInputV1): Promise<ProtocolEngineAsyncJobObservationV1> => guardPublicCall(async (stage) => {
      const { context, request: providerJobId } = await prepare(stage, 'get', input, readJobId);
      const { adapter, target, transport, signal } = context;
      const value = await call(context, () => adapter.get?.({ target, providerJobId, transport, signal, ...reporting(context) }));
      const snapshot = checkSnapshot(value);
      if (snapshot.providerJobId !== providerJobId) throw outputInvalid('the snapshot is for another job');
      return Object.freeze({ apiVersion: PROTOCOL_ENGINE_API_VERSION, snapshot });
    }),
    list: (input: ProtocolEngineAsyncJobListRequestV1): Promise<ProtocolEngineAsyncJobListResultV1> => guardPublicCall(async (stage) => {
      const { context, request: list } = await prepare(stage, 'list', input, readListInput);
      const { adapter, target, transport, signal } = context;
      const value = await call(context, () => adapter.list?.({ target, list, transport, signal, ...reporting(context) }));
      const page = checkListPage(value, list);
      return Object.freeze({
        apiVersion: PROTOCOL_ENGINE_API_VERSION,
        items: page.items,
        total: page.total,
        totalKind: page.totalKind,
        ...(page.pagesForWindow === undefined ? {} : { pagesForWindow: page.pagesForWindow }),
      });
    }),
    cancel: (input: ProtocolEngineAsyncJobInputV1): Promise<ProtocolEngineAsyncJobCancellationV1> => guardPublicCall(async (stage) => {
      const { context, request: providerJobId } = await prepare(stage, 'cancel', input, readJobId);
      const { adapter, target, transport, signal } = context;
      const value = await call(context, () => adapter.cancel?.({ target, providerJobId, transport, signal, ...reporting(context) }));
      if (value !== null) throw outputInvalid('a cancellation result must be null');
      return Object.freeze({ apiVersion: PROTOCOL_ENGINE_API_VERSION });
    }),
  };
  return Object.freeze(jobs);
}

function readJobId(input: Record<string, unknown>): string {
  const parsed = providerJobIdSchema.safeParse(input.providerJobId);
  if (!parsed.success) throw engineError(CODES.INPUT_INVALID, 'the provider job id is malformed', parsed.error);
  if (!isPathSafeProviderJobId(parsed.data)) {
    throw engineError(CODES.INPUT_INVALID, 'the provider job id is not a single safe path segment');
  }
  return parsed.data;
}

function readListInput(input: Record<string, unknown>): ProviderAsyncJobListInputV2 {
  const parsed = providerAsyncJobListInputV2Schema.safeParse({
    pageNum: input.pageNum,
    pageSize: input.pageSize,
    ...(input.createdAfter === undefined ? {} : { createdAfter: input.createdAfter }),
    ...(input.createdBefore === undefined ? {} : { createdBefore: input.createdBefore }),
  });
  if (!parsed.success) {
    throw engineError(CODES.INPUT_INVALID, `the job list request is malformed${describePath(parsed.error.issues)}`, parsed.error);
  }
  const { createdAfter, createdBefore } = parsed.data;
  if (createdAfter !== undefined && createdBefore !== undefined && Date.parse(createdAfter) >= Date.parse(createdBefore)) {
    throw engineError(CODES.INPUT_INVALID, 'the job list window is empty (createdAfter is not before createdBefore)');
  }
  return Object.freeze(parsed.data);
}

/** The adapter's `reportDiagnostic` member when the host listens. */
function reporting(context: OperationContext): { reportDiagnostic?: DiagnosticSink['report'] } {
  return context.diagnostics === undefined ? {} : { reportDiagnostic: context.diagnostics.report };
}
