import type { TaskEnvelopeV3 } from '@tokenforge/model-protocol';
import { PROTOCOL_ENGINE_ERROR_CODES_V1 } from '@tokenforge/protocol-engine';
import { describe, expect, it } from 'vitest';
import type { RuntimeModel, RuntimeTarget } from '../runtime/resolve-catalogue.js';
import { routeStage } from './route-stage.js';

const target = (ref: string, taskKinds: readonly string[], execution: 'sync' | 'async' = 'sync'): RuntimeTarget => ({ ref, execution, capability: { taskKinds } }) as unknown as RuntimeTarget;
const model = (name: string, taskKind: string, targets: RuntimeTarget[]): [string, RuntimeModel] => [name, { name, taskKind, targets } as RuntimeModel];
const catalogue = {
  models: new Map([
    model('chat-model', 'chat', [target('chat-model#0', ['chat']), target('chat-model#1', ['chat'], 'async'), target('chat-model#2', ['chat', 'token-count'])]),
    model('plain-chat', 'chat', [target('plain-chat#0', ['chat'])]),
    model('embedder', 'embedding', [target('embedder#0', ['embedding'])]),
  ]),
};
const task = (kind: string): TaskEnvelopeV3 => ({ kind }) as TaskEnvelopeV3;
const notFound = { kind: 'refuse', refusal: { kind: 'egress', failure: { source: 'engine', code: 'GATEWAY_MODEL_NOT_FOUND' }, outcome: 'refused:model-not-found', headers: {} } };

describe('routeStage', () => {
  it('routes to the model’s sync targets that serve the task, in catalogue order', async () => {
    const routed = await routeStage({ catalogue, task: task('chat'), modelName: 'chat-model' });
    expect(routed.kind === 'continue' ? routed.value.map((each) => each.ref) : routed).toEqual(['chat-model#0', 'chat-model#2']);
  });

  it('routes a token count to the chat model’s counting targets only', async () => {
    const routed = await routeStage({ catalogue, task: task('token-count'), modelName: 'chat-model' });
    expect(routed.kind === 'continue' ? routed.value.map((each) => each.ref) : routed).toEqual(['chat-model#2']);
  });

  it('refuses an unknown model, and a model of another kind, as not found', async () => {
    expect(await routeStage({ catalogue, task: task('chat'), modelName: 'nope' })).toEqual(notFound);
    expect(await routeStage({ catalogue, task: task('chat'), modelName: 'embedder' })).toEqual(notFound);
    expect(await routeStage({ catalogue, task: task('token-count'), modelName: 'embedder' })).toEqual(notFound);
  });

  it('refuses a token count for a chat model none of whose targets count with the engine’s task mismatch', async () => {
    expect(await routeStage({ catalogue, task: task('token-count'), modelName: 'plain-chat' })).toEqual({
      kind: 'refuse',
      refusal: { kind: 'egress', failure: { source: 'engine', code: PROTOCOL_ENGINE_ERROR_CODES_V1.TARGET_TASK_MISMATCH }, outcome: 'refused:token-count-unsupported', headers: {} },
    });
  });
});
