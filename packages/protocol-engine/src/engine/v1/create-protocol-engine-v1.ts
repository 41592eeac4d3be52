import type { ProviderAdapterTargetV1, ProviderAdapterV1, ProviderAsyncJobAdapterV1, TaskEnvelopeV3 } from '@tokenforge/model-protocol';
import { PROTOCOL_ENGINE_API_VERSION } from '../../contracts/v1/api-version.js';
import type {
  ProtocolEngineAdapterRegistryPortV1,
  ProtocolEngineExecuteInputV1,
  ProtocolEngineExecutionV1,
  ProtocolEngineV1,
} from '../../contracts/v1/protocol-engine-contracts-v1.js';
import { PROTOCOL_ENGINE_ERROR_CODES_V1 as CODES, engineError } from '../../error/v1/protocol-engine-error-v1.js';
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
import { checkTaskAgainstCapability, parseTask, type CheckedExecutionInputs } from '../../validation/v1/check-task-against-capability.js';
import { isRecord, requireSignal, snapshotBinding, throwIfAborted, type CheckedBinding } from '../../validation/v1/input-guards.js';
import { adapterCallFailed, bindTransport } from './bind-and-call.js';
import { guardPublicCall, readGuarded, toEngineError } from './guard-public-call.js';

/**
 * Creates an engine over one adapter registry. The registry's family list is read once, validated, sorted and
 * frozen as `engine.protocolFamilies`: the only families the engine will ever dispatch to.
 */
export function createProtocolEngineV1(input: { readonly registry: ProtocolEngineAdapterRegistryPortV1 }): ProtocolEngineV1 {
  const registry = readGuarded(CODES.REGISTRY_INVALID, () => {
    if (!isRecord(input)) throw engineError(CODES.REGISTRY_INVALID, 'the engine needs a registry');
    return snapshotRegistry(input.registry);
  });

  const execute = (executeInput: ProtocolEngineExecuteInputV1): Promise<ProtocolEngineExecutionV1> =>
    guardPublicCall(async (stage) => {
      if (!isRecord(executeInput)) throw engineError(CODES.INPUT_INVALID, 'the execute input must be an object');
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
      const adapterTarget: ProviderAdapterTargetV1 = Object.freeze({ providerModel: binding.target.providerModel, capability });
      stage.code = CODES.FACTORY_MISMATCH;
      // The capability's execution mode, never the task kind, decides sync versus async dispatch.
      if (capability.executionMode === 'async-job') {
        const { adapter } = registry.createAsyncAdapter(capability.protocolFamily);
        stage.code = CODES.ADAPTER_OUTPUT_INVALID;
        return startAsyncJob(adapter, binding, adapterTarget, checked, signal);
      }
      const adapter = registry.createSyncAdapter(capability.protocolFamily);
      stage.code = CODES.ADAPTER_OUTPUT_INVALID;
      return runSync(adapter, binding, adapterTarget, checked, signal);
    });

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
): Promise<ProtocolEngineExecutionV1> {
  const { task } = checked;
  const streaming = task.kind === 'chat' && task.stream;
  const transport = await bindTransport(binding, signal);
  const controller = streaming ? new AbortController() : undefined;
  const unlink = controller === undefined ? undefined : readGuarded(CODES.INPUT_INVALID, () => linkHostSignal(signal, controller));
  let raw: unknown;
  try {
    raw = await adapter.execute({
      task,
      target,
      transport,
      signal: controller?.signal ?? signal,
      ...(checked.preparedMedia === undefined ? {} : { preparedMedia: checked.preparedMedia }),
    });
  } catch (error) {
    unlink?.();
    throw adapterCallFailed(error, signal);
  }
  try {
    return buildExecution(raw, task, target, signal, controller, unlink);
  } catch (error) {
    // Whatever went wrong, an adapter stream that was handed to us must not keep the transport.
    const failure = toEngineError(error, CODES.ADAPTER_OUTPUT_INVALID);
    controller?.abort(failure);
    unlink?.();
    releaseParts(raw);
    throw failure;
  }
}

function buildExecution(
  raw: unknown,
  task: TaskEnvelopeV3,
  target: ProviderAdapterTargetV1,
  signal: AbortSignal,
  controller: AbortController | undefined,
  dispose: (() => void) | undefined,
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
  if (controller === undefined || dispose === undefined) {
    const terminal = checkTerminal(raw.terminal, task, target.capability);
    if (terminal.status === 'completed' && acceptance.state !== 'accepted') {
      throw outputInvalid('a completed terminal needs accepted acceptance facts');
    }
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
  return createEngineStream({
    iterator: iterator as unknown as AsyncIterator<unknown>,
    task,
    capability: target.capability,
    acceptance,
    responseMetadata,
    hostSignal: signal,
    controller,
    dispose,
  });
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
): Promise<ProtocolEngineExecutionV1> {
  const transport = await bindTransport(binding, signal);
  let raw: unknown;
  try {
    raw = await adapter.start({
      task: checked.task,
      target,
      transport,
      signal,
      ...(checked.preparedMedia === undefined ? {} : { preparedMedia: checked.preparedMedia }),
      ...(checked.providerCallbackUrl === undefined ? {} : { providerCallbackUrl: checked.providerCallbackUrl }),
    });
  } catch (error) {
    throw adapterCallFailed(error, signal);
  }
  const outcome = readGuarded(CODES.ADAPTER_OUTPUT_INVALID, () => checkStartOutcome(raw));
  if (outcome.accepted) {
    return Object.freeze({
      apiVersion: PROTOCOL_ENGINE_API_VERSION,
      kind: 'accepted-job',
      acceptance: Object.freeze({ state: 'accepted' as const }),
      responseMetadata: outcome.responseMetadata,
      providerJobId: outcome.providerJobId,
    });
  }
  return Object.freeze({
    apiVersion: PROTOCOL_ENGINE_API_VERSION,
    kind: 'rejected',
    acceptance: Object.freeze({ state: outcome.state }),
    responseMetadata: outcome.responseMetadata,
    failureCode: outcome.failure.code,
    // An `unknown` start may have created a job: resending could duplicate it.
    retryable: outcome.state === 'unknown' ? false : outcome.failure.retryable,
  });
}
