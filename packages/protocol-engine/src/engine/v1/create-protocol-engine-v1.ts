import type {
  ProviderAdapterExecuteInputV1,
  ProviderAdapterTargetV1,
  ProviderAdapterV1,
  ProviderAsyncJobAdapterV1,
  ProviderTransport,
  TaskEnvelopeV4,
} from '@tokenforge/model-protocol';
import { PROTOCOL_ENGINE_API_VERSION } from '../../contracts/v1/api-version.js';
import type {
  ProtocolEngineAdapterRegistryPortV1,
  ProtocolEngineExecutionV1,
  ProtocolEngineV1,
} from '../../contracts/v1/protocol-engine-contracts-v1.js';
import { PROTOCOL_ENGINE_ERROR_CODES_V1 as CODES, engineError, type ProtocolEngineErrorCodeV1 } from '../../error/v1/protocol-engine-error-v1.js';
import { createAsyncJobs } from '../../jobs/v1/create-async-jobs.js';
import { snapshotRegistry } from '../../registry/v1/snapshot-registry.js';
import { linkHostSignal } from '../../stream/v1/link-host-signal.js';
import { createEngineStream } from '../../stream/v1/create-engine-stream.js';
import { releaseIterator } from '../../stream/v1/release-iterator.js';
import {
  checkAcceptance,
  checkResponseMetadata,
  checkStartOutcome,
  checkTerminal,
  outputInvalid,
} from '../../validation/v1/check-adapter-output.js';
import { checkFreeFormJson } from '../../validation/v1/check-free-form-json.js';
import { outputSchemaCheckFor } from '../../validation/v3/output-schema-check.js';
import { checkTaskAgainstCapability, parseTask, type CheckedExecutionInputs } from '../../validation/v1/check-task-against-capability.js';
import { isRecord, requireSignal, snapshotBinding, throwIfAborted, type CheckedBinding } from '../../validation/v1/input-guards.js';
import { adapterCallFailed, bindTransport } from './bind-and-call.js';
import { readGuarded, toEngineError } from './guard-public-call.js';
import { watchOf, type ExecutionWatch } from '../v3/execution-watch.js';
import type { ProtocolEngineExecuteInputV3 } from '../../contracts/v3/protocol-engine-execute-input-v3.js';

/**
 * Creates an engine over one adapter registry. The registry's family list is read once, validated, sorted and
 * frozen as `engine.protocolFamilies`: the only families the engine will ever dispatch to.
 */
export function createProtocolEngineV1(input: { readonly registry: ProtocolEngineAdapterRegistryPortV1 }): ProtocolEngineV1 {
  const registry = readGuarded(CODES.REGISTRY_INVALID, () => {
    if (!isRecord(input)) throw engineError(CODES.REGISTRY_INVALID, 'the engine needs a registry');
    return snapshotRegistry(input.registry);
  });

  // One async frame per call (no wrapper closure) and awaited returns: each saves promise turns on the hot path.
  async function execute(executeInput: ProtocolEngineExecuteInputV3): Promise<ProtocolEngineExecutionV1> {
    let stage: ProtocolEngineErrorCodeV1 = CODES.INPUT_INVALID;
    let watch: ExecutionWatch | undefined;
    try {
      if (!isRecord(executeInput)) throw engineError(CODES.INPUT_INVALID, 'the execute input must be an object');
      watch = watchOf(executeInput.observer);
      const signal = requireSignal(executeInput);
      const binding = snapshotBinding(executeInput.binding);
      const task = checkFreeFormJson(parseTask(executeInput.task));
      const capability = binding.target.capability;
      registry.assertDeclared(capability.protocolFamily);
      const checked = checkTaskAgainstCapability(task, capability, {
        preparedMedia: executeInput.preparedMedia,
        providerCallbackUrl: executeInput.providerCallbackUrl,
      });
      throwIfAborted(signal);
      watch?.observe({ type: 'execution-dispatched', protocolFamily: capability.protocolFamily, taskKind: task.kind, streamed: task.kind === 'chat' && task.stream });
      const adapterTarget: ProviderAdapterTargetV1 = Object.freeze({ providerModel: binding.target.providerModel, capability });
      stage = CODES.FACTORY_MISMATCH;
      // The capability's execution mode, never the task kind, decides sync versus async dispatch.
      if (capability.executionMode === 'async-job') {
        const { adapter } = registry.createAsyncAdapter(capability.protocolFamily);
        stage = CODES.ADAPTER_OUTPUT_INVALID;
        return await startAsyncJob(adapter, binding, adapterTarget, checked, signal, watch);
      }
      const adapter = registry.createSyncAdapter(capability.protocolFamily);
      stage = CODES.ADAPTER_OUTPUT_INVALID;
      return await runSync(adapter, binding, adapterTarget, checked, signal, watch);
    } catch (error) {
      const failure = toEngineError(error, stage);
      watch?.failed(failure);
      throw failure;
    }
  }

  return Object.freeze({
    apiVersion: PROTOCOL_ENGINE_API_VERSION,
    protocolFamilies: registry.protocolFamilies,
    execute,
    jobs: createAsyncJobs(registry),
  });
}

async function runSync(
  adapter: ProviderAdapterV1,
  binding: CheckedBinding,
  target: ProviderAdapterTargetV1,
  checked: CheckedExecutionInputs,
  signal: AbortSignal,
  watch: ExecutionWatch | undefined,
): Promise<ProtocolEngineExecutionV1> {
  const { task } = checked;
  const streaming = task.kind === 'chat' && task.stream;
  const transport = await bindTransport(binding, signal);
  watch?.observe({ type: 'transport-bound' });
  const controller = streaming ? new AbortController() : undefined;
  const unlink = controller === undefined ? undefined : readGuarded(CODES.INPUT_INVALID, () => linkHostSignal(signal, controller));
  let raw: unknown;
  try {
    raw = await adapter.execute(adapterInput(task, target, transport, controller?.signal ?? signal, checked, watch?.diagnostics));
  } catch (error) {
    unlink?.();
    watch?.diagnostics?.open(undefined);
    throw adapterCallFailed(error, signal);
  }
  try {
    const execution = buildExecution(raw, task, target, signal, controller, unlink, watch);
    watch?.diagnostics?.open(execution.responseMetadata.providerRequestId);
    return execution;
  } catch (error) {
    watch?.diagnostics?.open(undefined);
    // Whatever went wrong, an adapter stream that was handed to us must not keep the transport.
    const failure = toEngineError(error, CODES.ADAPTER_OUTPUT_INVALID);
    controller?.abort(failure);
    unlink?.();
    releaseParts(raw);
    throw failure;
  }
}

/** The adapter's input: optional members only when present, so the object keeps one shape per task kind. */
function adapterInput(
  task: TaskEnvelopeV4,
  target: ProviderAdapterTargetV1,
  transport: ProviderTransport,
  signal: AbortSignal,
  checked: CheckedExecutionInputs,
  diagnostics: ExecutionWatch['diagnostics'],
): ProviderAdapterExecuteInputV1 {
  const input: { -readonly [K in keyof ProviderAdapterExecuteInputV1]: ProviderAdapterExecuteInputV1[K] } = { task, target, transport, signal };
  if (checked.preparedMedia !== undefined) input.preparedMedia = checked.preparedMedia;
  if (diagnostics !== undefined) input.reportDiagnostic = diagnostics.report;
  return input;
}

function buildExecution(
  raw: unknown,
  task: TaskEnvelopeV4,
  target: ProviderAdapterTargetV1,
  signal: AbortSignal,
  controller: AbortController | undefined,
  dispose: (() => void) | undefined,
  watch?: ExecutionWatch,
): ProtocolEngineExecutionV1 {
  if (!isRecord(raw)) throw outputInvalid('the execution is not an object');
  const expected = controller === undefined ? 'response' : 'stream';
  if (raw.kind !== expected) throw outputInvalid(`the adapter did not return a ${expected} execution for this task`);
  for (const key in raw) {
    if (key !== 'kind' && key !== 'acceptance' && key !== 'responseMetadata' && key !== (expected === 'stream' ? 'parts' : 'terminal')) {
      throw outputInvalid('the execution has an undeclared field');
    }
  }
  const acceptance = checkAcceptance(raw.acceptance);
  const responseMetadata = checkResponseMetadata(raw.responseMetadata);
  // Only a task that asked for a JSON schema gets a check (one property read for every other task).
  const outputSchemaCheck = outputSchemaCheckFor(task, watch?.diagnostics?.report);
  if (controller === undefined || dispose === undefined) {
    const checked = checkTerminal(raw.terminal, task, target.capability);
    if (checked.status === 'completed' && acceptance.state !== 'accepted') {
      throw outputInvalid('a completed terminal needs accepted acceptance facts');
    }
    const terminal = outputSchemaCheck === undefined ? checked : outputSchemaCheck(checked);
    watch?.finished(terminal, acceptance.state);
    return Object.freeze({ apiVersion: PROTOCOL_ENGINE_API_VERSION, kind: 'response', acceptance, responseMetadata, terminal });
  }
  const parts = raw.parts;
  if (!isRecord(parts) || typeof (parts as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] !== 'function') {
    throw outputInvalid('the stream parts are not async iterable');
  }
  let iterator: unknown;
  try {
    iterator = (parts as unknown as AsyncIterable<unknown>)[Symbol.asyncIterator]();
  } catch (error) {
    throw engineError(CODES.ADAPTER_FAILED, 'the adapter failed to open its stream parts', error);
  }
  if (!isRecord(iterator) || typeof iterator.next !== 'function') throw outputInvalid('the stream parts iterator has no next function');
  const stream = createEngineStream({
    iterator: iterator as unknown as AsyncIterator<unknown>,
    task,
    capability: target.capability,
    acceptance,
    responseMetadata,
    hostSignal: signal,
    controller,
    dispose,
    ...(outputSchemaCheck === undefined ? {} : { outputSchemaCheck }),
    ...(watch === undefined ? {} : { onFirstEvent: () => watch.observe({ type: 'stream-started' }) }),
  });
  if (watch !== undefined) stream.terminal.then((terminal) => watch.finished(terminal, acceptance.state), (error: unknown) => watch.failed(error));
  return stream;
}

function releaseParts(raw: unknown): void {
  try {
    if (!isRecord(raw) || !isRecord(raw.parts)) return;
    const open = (raw.parts as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator];
    if (typeof open !== 'function') return;
    releaseIterator(open.call(raw.parts) as AsyncIterator<unknown>);
  } catch {
    // Best effort: the abort signal already told the adapter to stop.
  }
}

async function startAsyncJob(
  adapter: ProviderAsyncJobAdapterV1,
  binding: CheckedBinding,
  target: ProviderAdapterTargetV1,
  checked: CheckedExecutionInputs,
  signal: AbortSignal,
  watch: ExecutionWatch | undefined,
): Promise<ProtocolEngineExecutionV1> {
  const transport = await bindTransport(binding, signal);
  watch?.observe({ type: 'transport-bound' });
  let raw: unknown;
  try {
    raw = await adapter.start({
      ...adapterInput(checked.task, target, transport, signal, checked, watch?.diagnostics),
      ...(checked.providerCallbackUrl === undefined ? {} : { providerCallbackUrl: checked.providerCallbackUrl }),
    });
  } catch (error) {
    watch?.diagnostics?.open(undefined);
    throw adapterCallFailed(error, signal);
  }
  let outcome: ReturnType<typeof checkStartOutcome>;
  try {
    outcome = readGuarded(CODES.ADAPTER_OUTPUT_INVALID, () => checkStartOutcome(raw));
  } finally {
    watch?.diagnostics?.open(undefined);
  }
  if (outcome.accepted) {
    watch?.observe({ type: 'execution-finished', status: 'accepted-job' });
    return Object.freeze({
      apiVersion: PROTOCOL_ENGINE_API_VERSION,
      kind: 'accepted-job',
      acceptance: Object.freeze({ state: 'accepted' as const }),
      responseMetadata: outcome.responseMetadata,
      providerJobId: outcome.providerJobId,
    });
  }
  // An `unknown` start may have created a job: resending could duplicate it.
  const retryable = outcome.state === 'unknown' ? false : outcome.failure.retryable;
  watch?.observe({ type: 'attempt-failed', code: outcome.failure.code, retryable, acceptance: outcome.state });
  watch?.observe({ type: 'execution-finished', status: 'rejected', failureCode: outcome.failure.code });
  return Object.freeze({
    apiVersion: PROTOCOL_ENGINE_API_VERSION,
    kind: 'rejected',
    acceptance: Object.freeze({ state: outcome.state }),
    responseMetadata: outcome.responseMetadata,
    failureCode: outcome.failure.code,
    retryable,
  });
}
