import type { TaskEnvelopeV4, TaskKindV3 } from '@tokenforge/model-protocol';
import { PROTOCOL_ENGINE_ERROR_CODES_V1 } from '@tokenforge/protocol-engine';
import { egressRefusal } from '../pipeline/gateway-refusal.js';
import { proceed, refuse, type StageOutcome } from '../pipeline/stage.js';
import type { TargetRouter } from '../routing/target-router.js';
import type { ResolvedCatalogue, RuntimeTarget } from '../runtime/resolve-catalogue.js';

/** What the route stage reads. */
export interface RouteInput {
  readonly catalogue: Pick<ResolvedCatalogue, 'models'>;
  readonly task: TaskEnvelopeV4;
  /** The catalogue model the client named. */
  readonly modelName: string;
  /** With governance: whether the caller may use a model (one it may not use is answered like an unknown model). */
  readonly mayUse?: ((modelName: string) => boolean) | undefined;
  /** Tiers, balancing and cooldown (absent: catalogue order). */
  readonly router?: Pick<TargetRouter, 'order'>;
}

/** The sync targets of a catalogue model that can serve `task`, in catalogue order; undefined for an unknown model or a model of another kind. */
export function targetsFor(catalogue: Pick<ResolvedCatalogue, 'models'>, task: TaskEnvelopeV4, modelName: string): readonly RuntimeTarget[] | undefined {
  const model = catalogue.models.get(modelName);
  // A token-count task counts the input of a chat model's request: the chat model's targets that can count serve it.
  const modelKind = task.kind === 'token-count' ? 'chat' : task.kind;
  if (model === undefined || model.taskKind !== modelKind) return undefined;
  // A V2 capability lists V2 kinds only, so it never lists `token-count`: read every list as V3 kinds.
  return model.targets.filter((target) => target.execution === 'sync' && (target.capability.taskKinds as readonly TaskKindV3[]).includes(task.kind));
}

/** The ordered targets for the requested model, or `GATEWAY_MODEL_NOT_FOUND` (the dialect's 404) (a counting request: its not-supported refusal). */
export async function routeStage(input: RouteInput): Promise<StageOutcome<readonly RuntimeTarget[]>> {
  if (input.mayUse !== undefined && !input.mayUse(input.modelName)) {
    return refuse(egressRefusal({ source: 'provider', failure: { code: 'not-found', retryable: false } }, 'refused:model-not-allowed'));
  }
  const targets = targetsFor(input.catalogue, input.task, input.modelName);
  // A model none of whose targets can count answers the dialect's not-supported refusal (each dialect's 400 for
  // the engine's task mismatch), never an estimate or zero.
  if (targets !== undefined && targets.length === 0 && input.task.kind === 'token-count') {
    return refuse(egressRefusal({ source: 'engine', code: PROTOCOL_ENGINE_ERROR_CODES_V1.TARGET_TASK_MISMATCH }, 'refused:token-count-unsupported'));
  }
  if (targets === undefined || targets.length === 0) return refuse(egressRefusal({ source: 'engine', code: 'GATEWAY_MODEL_NOT_FOUND' }, 'refused:model-not-found'));
  return proceed(input.router === undefined ? targets : input.router.order(input.catalogue.models.get(input.modelName), targets));
}
