import type { TaskKindV2 } from '@tokenforge/model-protocol';
import type { GatewayRuntime } from '../runtime/gateway-runtime.js';

/** A public model as the list endpoints show it. */
export interface ListedModel {
  readonly name: string;
  readonly taskKind: TaskKindV2;
}

const CREATED_SECONDS = 1_767_225_600;

/** Which models the caller may see (with governance: its model access); default all. */
export type ModelFilter = (name: string) => boolean;

const ALL: ModelFilter = () => true;

function listed(runtime: GatewayRuntime, visible: ModelFilter): ListedModel[] {
  return [...runtime.catalogue.models.values()].filter((model) => visible(model.name)).map((model) => ({ name: model.name, taskKind: model.taskKind }));
}

/** `GET /v1/models` in OpenAI's shape. */
export function openAiModelList(runtime: GatewayRuntime, visible: ModelFilter = ALL): unknown {
  return { object: 'list', data: listed(runtime, visible).map((model) => ({ id: model.name, object: 'model', created: CREATED_SECONDS, owned_by: 'tokenforge-gateway' })) };
}

/** `GET /v1/models` in Anthropic's shape (one page). */
export function anthropicModelList(runtime: GatewayRuntime, visible: ModelFilter = ALL): unknown {
  const data = listed(runtime, visible)
    .filter((model) => model.taskKind === 'chat')
    .map((model) => ({ type: 'model', id: model.name, display_name: model.name, created_at: new Date(CREATED_SECONDS * 1000).toISOString() }));
  return { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
}

/** `GET /v1beta/models` in Gemini's shape: chat models with the methods this gateway serves. */
export function geminiModelList(runtime: GatewayRuntime, visible: ModelFilter = ALL): unknown {
  return {
    models: listed(runtime, visible)
      .filter((model) => model.taskKind === 'chat')
      .map((model) => ({ name: `models/${model.name}`, displayName: model.name, supportedGenerationMethods: ['generateContent', 'streamGenerateContent'] })),
  };
}
