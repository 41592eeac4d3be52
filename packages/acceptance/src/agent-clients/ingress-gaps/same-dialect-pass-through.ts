/**
 * What a decodable captured request loses on a same-dialect pass-through today: the request is decoded by its
 * dialect's ingress codec, executed by the engine against a target of the same family (with a capturing transport,
 * no network), and the fields of the body the adapter would send are compared with the client's. A field the client
 * sent that the provider request lacks was dropped on the way.
 */
import { fitTaskToTarget } from '@tokenforge/gateway';
import type { ProtocolCapabilityV3, ProtocolFamily, ProviderTransport, ProviderTransportRequest, TaskEnvelopeV4 } from '@tokenforge/model-protocol';
import { createProtocolEngineTargetBindingV1, createProtocolEngineV1, isProtocolEngineErrorV1 } from '@tokenforge/protocol-engine';
import { createBuiltinTokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';

const suite = createBuiltinTokenForgeProtocolSuiteV1();
const engine = createProtocolEngineV1({ registry: suite.registry });
/** The agent-era facts a same-dialect target of each family declares (as the embedded catalogue's targets do). */
const AGENT_FACTS: Record<string, Pick<ProtocolCapabilityV3, 'parallelToolCalls' | 'hostedTools' | 'contextManagement' | 'reasoningEfforts'>> = {
  'anthropic-messages/v1': { parallelToolCalls: true, hostedTools: ['web-search'], contextManagement: true, reasoningEfforts: ['low', 'medium', 'high', 'xhigh', 'max'] },
  'openai-chat/v1': { parallelToolCalls: true, reasoningEfforts: ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] },
  'openai-responses/v1': { parallelToolCalls: true, hostedTools: ['web-search'], reasoningEfforts: ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] },
  'gemini-generate-content/v1': { hostedTools: ['web-search'], reasoningEfforts: ['minimal', 'low', 'medium', 'high'] },
};
const SCHEMA_KEYS = new Set(['input_schema', 'parameters', 'parametersJsonSchema', 'parameters_json_schema', 'responseJsonSchema', 'responseSchema', 'schema', 'properties', 'input', 'args', 'response']);

/** Generalized JSON paths of a body's fields (array indices as `*`), not descending into schemas or tool data. */
export function fieldPaths(value: unknown, path = '', out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) fieldPaths(item, `${path}.*`, out);
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const child = path === '' ? key : `${path}.${key}`;
      out.add(child.replace(/^\.\*\./, ''));
      if (!SCHEMA_KEYS.has(key)) fieldPaths(item, child, out);
    }
  }
  return out;
}

/** The outcome of one pass-through. */
export type PassThrough =
  | { readonly outcome: 'sent'; readonly dropped: readonly string[] }
  | { readonly outcome: 'not-sent'; readonly reason: string };

/** Runs a decoded request's body through ingress, engine and the same family's adapter; lists the fields dropped. */
export async function samePassThrough(family: ProtocolFamily, request: { path: string; query: Record<string, string>; body: unknown }): Promise<PassThrough> {
  const codecs = suite.codecsFor(family);
  if (codecs === undefined) return { outcome: 'not-sent', reason: 'no ingress codec' };
  const decoded = codecs.ingress.decodeRequest({ path: request.path, query: request.query, body: new TextEncoder().encode(JSON.stringify(request.body)) });
  const capability: ProtocolCapabilityV3 = {
    protocolFamily: family,
    executionMode: 'stream-capable',
    taskKinds: ['chat'],
    tools: true,
    forcedToolChoice: true,
    reasoning: true,
    imageInput: true,
    documentInput: true,
    structuredOutput: 'native-json-schema',
    ...AGENT_FACTS[family],
  };
  const task = fitTaskToTarget(decoded.task as TaskEnvelopeV4, capability).task;
  let sent: ProviderTransportRequest | undefined;
  const transport: ProviderTransport = {
    send: async (outgoing) => {
      sent = outgoing;
      return { status: 400, headers: { 'content-type': 'application/json' }, body: (async function* () {
        yield new TextEncoder().encode('{"error":{"message":"captured","type":"invalid_request_error"}}');
      })() };
    },
  };
  const binding = createProtocolEngineTargetBindingV1({
    target: {
      provider: 'capture',
      providerModel: decoded.modelLabel,
      connectionRef: 'capture',
      capability,
    },
    bindTransport: () => transport,
  });
  let execution;
  try {
    execution = await engine.execute({ binding, task, signal: new AbortController().signal });
  } catch (error) {
    if (isProtocolEngineErrorV1(error)) return { outcome: 'not-sent', reason: `engine ${error.code}` };
    throw error;
  }
  let terminal;
  if (execution.kind === 'stream') {
    for await (const _ of execution.events) void _;
    terminal = await execution.terminal;
  } else if (execution.kind === 'response') terminal = execution.terminal;
  if (sent === undefined) {
    const failure = terminal?.status === 'failed' ? `, ${terminal.failure.code}` : '';
    return { outcome: 'not-sent', reason: `nothing sent (${execution.kind}${failure})` };
  }
  const body = sent.body.type === 'json' ? sent.body.value : undefined;
  const outgoing = fieldPaths(body);
  return { outcome: 'sent', dropped: [...fieldPaths(request.body)].filter((path) => !outgoing.has(path)).sort() };
}
