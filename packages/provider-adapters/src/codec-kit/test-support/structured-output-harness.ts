import type { AdapterStreamPartV1, ChatTaskV4, ProtocolCapabilityV3, ProviderAdapterExecutionV1, ProviderAdapterFactory, ProviderTransport } from '@tokenforge/model-protocol';
import { expect } from 'vitest';
import { createFixtureTransportV1, type FixtureResponseV1 } from '../../testing/fixture-transport.js';

export const PERSON_SCHEMA = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
export const RESERVED = 'tokenforge_structured_output';

export function structuredTask(stream = false): ChatTaskV4 {
  return {
    kind: 'chat',
    stream,
    system: [{ type: 'text', text: 'Be brief.' }],
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Who?' }] }],
    responseFormat: { type: 'json', schema: PERSON_SCHEMA, name: 'person' },
  };
}

export function structuredCapability(protocolFamily: ProtocolCapabilityV3['protocolFamily'], structuredOutput: NonNullable<ProtocolCapabilityV3['structuredOutput']>): ProtocolCapabilityV3 {
  return { protocolFamily, executionMode: 'stream-capable', taskKinds: ['chat'], tools: true, forcedToolChoice: true, structuredOutput };
}

/** Runs one execution over a fixture transport; returns the JSON body sent and the execution. */
export async function runStructured(
  factory: ProviderAdapterFactory,
  capability: ProtocolCapabilityV3,
  task: ChatTaskV4,
  response: FixtureResponseV1,
): Promise<{ sent: Record<string, unknown>; execution: ProviderAdapterExecutionV1 }> {
  const transport = createFixtureTransportV1({ responses: [response] });
  const execution = await factory.createAdapter().execute({
    task,
    target: { providerModel: 'model-x', capability },
    transport: transport as ProviderTransport,
    signal: new AbortController().signal,
  });
  const body = transport.requests[0]?.body as { type: string; value?: unknown } | undefined;
  return { sent: (body?.value ?? {}) as Record<string, unknown>, execution };
}

export async function partsOf(execution: ProviderAdapterExecutionV1): Promise<AdapterStreamPartV1[]> {
  if (execution.kind !== 'stream') throw new Error('expected a stream');
  const parts: AdapterStreamPartV1[] = [];
  for await (const part of execution.parts) parts.push(part);
  return parts;
}

/** The forced-tool answer as the client sees it: one text part with the arguments, finish stop. */
export function expectTextAnswer(execution: ProviderAdapterExecutionV1, text: string): void {
  if (execution.kind !== 'response') throw new Error('expected a response');
  expect(execution.terminal).toMatchObject({ status: 'completed', result: { kind: 'chat', content: [{ type: 'text', text }] }, finishReason: { unified: 'stop' } });
}

/** A streamed forced-tool answer: text events only (no tool-call events), the same text in the terminal. */
export function expectStreamedText(parts: readonly AdapterStreamPartV1[], text: string): void {
  expect(parts.some((part) => part.type.startsWith('tool-call'))).toBe(false);
  const deltas = parts.flatMap((part) => (part.type === 'text-delta' ? [part.delta] : []));
  expect(deltas.length).toBeGreaterThan(0);
  expect(deltas.join('')).toBe(text);
  expect(parts.at(-1)).toMatchObject({ type: 'terminal', outcome: { status: 'completed', result: { content: [{ type: 'text', text }] }, finishReason: { unified: 'stop' } } });
}

export function sse(events: readonly unknown[], done = false): FixtureResponseV1 {
  const text = events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('') + (done ? 'data: [DONE]\n\n' : '');
  return { headers: { 'content-type': 'text/event-stream' }, body: { type: 'text', text } };
}

export function sseNamed(events: readonly { readonly event: string; readonly data: unknown }[]): FixtureResponseV1 {
  const text = events.map(({ event, data }) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join('');
  return { headers: { 'content-type': 'text/event-stream' }, body: { type: 'text', text } };
}
