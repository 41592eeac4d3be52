import type { PreparedMediaExecutionInputV2, ProtocolCapabilityV2, ProtocolFamily, TaskEnvelopeV2 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { createProtocolEngineV1 } from '../../engine/v1/create-protocol-engine-v1.js';
import { isProtocolEngineErrorV1 } from '../../error/v1/protocol-engine-error-v1.js';
import {
  ASYNC_FAMILY,
  CHAT_FAMILY,
  SECRET_MODEL,
  SECRET_PROMPT,
  SECRET_PROVIDER,
  asyncCapability,
  asyncFactory,
  chatCapability,
  chatTask,
  completedChat,
  countingBinding,
  makeTarget,
  newSignal,
  registryOf,
  respondWith,
  syncFactory,
  videoTask,
} from '../../test-support/fakes.js';

const EMBED_FAMILY = 'fake-embed/v1' as ProtocolFamily;
const EDIT_FAMILY = 'fake-edit/v1' as ProtocolFamily;

const image = { type: 'image', source: { type: 'url', url: 'https://example.test/cat.png' } } as const;
const documentPart = { type: 'document', source: { type: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' } } as const;
const audio = { type: 'audio', source: { type: 'base64', mediaType: 'audio/wav', data: 'UklGRg==' } } as const;
const weatherTool = { name: 'weather', inputSchema: { type: 'object' } };

function media(totalBytes = 10): PreparedMediaExecutionInputV2 {
  return {
    items: [
      {
        role: 'image',
        fileName: 'source.png',
        mediaType: 'image/png',
        sizeBytes: totalBytes,
        sha256: 'a'.repeat(64),
        open: async function* open() {
          yield new Uint8Array(totalBytes);
        },
      },
    ],
    totalBytes,
  };
}

interface Case {
  readonly name: string;
  readonly capability: ProtocolCapabilityV2;
  readonly task: TaskEnvelopeV2;
  readonly code: string;
  readonly preparedMedia?: unknown;
  readonly providerCallbackUrl?: unknown;
}

const embeddingCapability = (overrides: Partial<ProtocolCapabilityV2> = {}): ProtocolCapabilityV2 => ({
  protocolFamily: EMBED_FAMILY,
  executionMode: 'sync',
  taskKinds: ['embedding'],
  embedding: { spaceId: 'space-a', defaultDimensions: 4, allowedDimensions: [2], maxInputs: 2 },
  ...overrides,
});
const editCapability = (overrides: Partial<ProtocolCapabilityV2> = {}): ProtocolCapabilityV2 => ({
  protocolFamily: EDIT_FAMILY,
  executionMode: 'sync',
  taskKinds: ['image-edit', 'image-generation'],
  maxPreparedMediaBytes: 100,
  ...overrides,
});
const withUserParts = (...parts: unknown[]) => chatTask({ messages: [{ role: 'user', content: parts }] });

const CASES: readonly Case[] = [
  { name: 'task kind not in taskKinds', capability: chatCapability(), task: videoTask(), code: 'PROTOCOL_ENGINE_TARGET_TASK_MISMATCH' },
  { name: 'malformed task', capability: chatCapability(), task: { kind: 'chat', messages: [], stream: false } as never, code: 'PROTOCOL_ENGINE_INPUT_INVALID' },
  { name: 'stream on a sync target', capability: chatCapability({ executionMode: 'sync' }), task: chatTask({ stream: true }), code: 'PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED' },
  { name: 'tools without tools', capability: chatCapability(), task: chatTask({ tools: [weatherTool] }), code: 'PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED' },
  { name: 'toolChoice without tools', capability: chatCapability(), task: chatTask({ toolChoice: { type: 'none' } }), code: 'PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED' },
  {
    name: 'toolChoice naming an undefined tool',
    capability: chatCapability({ tools: true }),
    task: chatTask({ tools: [weatherTool], toolChoice: { type: 'tool', toolName: 'other' } }),
    code: 'PROTOCOL_ENGINE_INPUT_INVALID',
  },
  { name: 'image part without imageInput', capability: chatCapability(), task: withUserParts(image), code: 'PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED' },
  { name: 'document part without documentInput', capability: chatCapability({ imageInput: true }), task: withUserParts(documentPart), code: 'PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED' },
  { name: 'audio part without audioInput', capability: chatCapability({ imageInput: true, documentInput: true }), task: withUserParts(audio), code: 'PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED' },
  {
    name: 'image inside a tool result without imageInput',
    capability: chatCapability({ tools: true }),
    task: chatTask({
      tools: [weatherTool],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'weather', argumentsText: '{}' }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'weather', content: [image] }] },
      ],
    }),
    code: 'PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED',
  },
  { name: 'reasoning controls without reasoning', capability: chatCapability(), task: chatTask({ reasoning: { effort: 'high' } }), code: 'PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED' },
  {
    name: 'reasoning replay without reasoning',
    capability: chatCapability(),
    task: chatTask({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        { role: 'assistant', content: [{ type: 'reasoning', text: 'thinking', signature: 'sig' }] },
        { role: 'user', content: [{ type: 'text', text: 'and?' }] },
      ],
    }),
    code: 'PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED',
  },
  {
    name: 'json schema without structuredOutput',
    capability: chatCapability(),
    task: chatTask({ responseFormat: { type: 'json', schema: { type: 'object' } } }),
    code: 'PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED',
  },
  { name: 'callback URL on a target without callbackUrl', capability: asyncCapability(), task: videoTask(), providerCallbackUrl: 'https://host.example/cb', code: 'PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED' },
  {
    name: 'callback URL on a sync target',
    capability: chatCapability({ callbackUrl: true }),
    task: chatTask(),
    providerCallbackUrl: 'https://host.example/cb',
    code: 'PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED',
  },
  { name: 'http callback URL', capability: asyncCapability({ callbackUrl: true }), task: videoTask(), providerCallbackUrl: 'http://host.example/cb', code: 'PROTOCOL_ENGINE_INPUT_INVALID' },
  {
    name: 'callback URL with userinfo',
    capability: asyncCapability({ callbackUrl: true }),
    task: videoTask(),
    providerCallbackUrl: 'https://user:pass@host.example/cb',
    code: 'PROTOCOL_ENGINE_INPUT_INVALID',
  },
  { name: 'callback URL that is not a URL', capability: asyncCapability({ callbackUrl: true }), task: videoTask(), providerCallbackUrl: 'cb', code: 'PROTOCOL_ENGINE_INPUT_INVALID' },
  { name: 'callback URL that is not a string', capability: asyncCapability({ callbackUrl: true }), task: videoTask(), providerCallbackUrl: 42, code: 'PROTOCOL_ENGINE_INPUT_INVALID' },
  {
    name: 'embedding dimensions outside default and allowed',
    capability: embeddingCapability(),
    task: { kind: 'embedding', inputs: ['a'], dimensions: 3 },
    code: 'PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED',
  },
  { name: 'embedding inputs above maxInputs', capability: embeddingCapability(), task: { kind: 'embedding', inputs: ['a', 'b', 'c'] }, code: 'PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED' },
  {
    name: 'embedding target without a space',
    capability: embeddingCapability({ embedding: undefined }),
    task: { kind: 'embedding', inputs: ['a'] },
    code: 'PROTOCOL_ENGINE_INPUT_INVALID',
  },
  { name: 'image edit without prepared media', capability: editCapability(), task: { kind: 'image-edit', prompt: 'make it blue' }, code: 'PROTOCOL_ENGINE_INPUT_INVALID' },
  {
    name: 'image edit above maxPreparedMediaBytes',
    capability: editCapability(),
    task: { kind: 'image-edit', prompt: 'make it blue' },
    preparedMedia: media(101),
    code: 'PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED',
  },
  {
    name: 'image edit on a target without a media limit',
    capability: editCapability({ maxPreparedMediaBytes: undefined }),
    task: { kind: 'image-edit', prompt: 'make it blue' },
    preparedMedia: media(10),
    code: 'PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED',
  },
  {
    name: 'malformed prepared media',
    capability: editCapability(),
    task: { kind: 'image-edit', prompt: 'make it blue' },
    preparedMedia: { ...media(10), totalBytes: 11 },
    code: 'PROTOCOL_ENGINE_INPUT_INVALID',
  },
  {
    name: 'prepared media for another kind',
    capability: editCapability(),
    task: { kind: 'image-generation', prompt: 'a cat' },
    preparedMedia: media(10),
    code: 'PROTOCOL_ENGINE_INPUT_INVALID',
  },
];

function engineFor() {
  const sync = [CHAT_FAMILY, EMBED_FAMILY, EDIT_FAMILY].map((family) => syncFactory(respondWith(completedChat()), family));
  const start = async () => ({ acceptance: { state: 'accepted' as const }, responseMetadata: {}, providerJobId: 'job-1' });
  return createProtocolEngineV1({ registry: registryOf(sync, [asyncFactory({ start }, [])]) });
}

describe('task against capability (before any transport work)', () => {
  for (const testCase of CASES) {
    it(`refuses ${testCase.name}`, async () => {
      const engine = engineFor();
      const { binding, calls } = countingBinding(makeTarget(testCase.capability));
      let caught: unknown;
      try {
        await engine.execute({
          binding,
          task: testCase.task,
          signal: newSignal(),
          ...(testCase.preparedMedia === undefined ? {} : { preparedMedia: testCase.preparedMedia as never }),
          ...(testCase.providerCallbackUrl === undefined ? {} : { providerCallbackUrl: testCase.providerCallbackUrl as never }),
        });
      } catch (error) {
        caught = error;
      }
      expect(isProtocolEngineErrorV1(caught) && caught.code).toBe(testCase.code);
      expect(calls.count).toBe(0);
      const message = (caught as Error).message;
      for (const secret of [SECRET_PROVIDER, SECRET_MODEL, SECRET_PROMPT]) expect(message).not.toContain(secret);
    });
  }

  it('accepts each feature when the capability declares it', async () => {
    const engine = engineFor();
    const everything = chatCapability({ tools: true, imageInput: true, documentInput: true, audioInput: true, reasoning: true, structuredOutput: true });
    const task = chatTask({
      tools: [weatherTool],
      toolChoice: { type: 'tool', toolName: 'weather' },
      reasoning: { effort: 'low' },
      responseFormat: { type: 'json', schema: { type: 'object' } },
      messages: [{ role: 'user', content: [image, documentPart, audio, { type: 'text', text: 'look' }] }],
    });
    const { binding, calls } = countingBinding(makeTarget(everything));
    expect((await engine.execute({ binding, task, signal: newSignal() })).kind).toBe('response');
    expect(calls.count).toBe(1);
    const json = chatTask({ responseFormat: { type: 'json' }, tools: [] });
    expect((await engine.execute({ binding: countingBinding().binding, task: json, signal: newSignal() })).kind).toBe('response');
  });

  it('accepts allowed embedding dimensions and passes validated prepared media with open bound to the host item', async () => {
    const vectors = (count: number, dimensions: number) => Array.from({ length: count }, () => new Float32Array(dimensions));
    const embed = syncFactory(
      respondWith({ status: 'completed', result: { kind: 'embedding', vectors: vectors(1, 2), dimensions: 2, spaceId: 'space-a' } }),
      EMBED_FAMILY,
    );
    const engine = createProtocolEngineV1({ registry: registryOf([embed]) });
    const execution = await engine.execute({
      binding: countingBinding(makeTarget(embeddingCapability())).binding,
      task: { kind: 'embedding', inputs: ['a'], dimensions: 2 },
      signal: newSignal(),
    });
    expect(execution.kind === 'response' && execution.terminal.status).toBe('completed');

    class HostItem {
      readonly role = 'image' as const;
      readonly fileName = 'a.png';
      readonly mediaType = 'image/png';
      readonly sizeBytes = 3;
      readonly sha256 = 'b'.repeat(64);
      readonly bytes = new Uint8Array([1, 2, 3]);
      async *open(): AsyncIterable<Uint8Array> {
        yield this.bytes;
      }
    }
    const edit = syncFactory(respondWith({ status: 'completed', result: { kind: 'image-edit', images: [{ base64: 'AAAA' }] } }), EDIT_FAMILY);
    const editEngine = createProtocolEngineV1({ registry: registryOf([edit]) });
    await editEngine.execute({
      binding: countingBinding(makeTarget(editCapability())).binding,
      task: { kind: 'image-edit', prompt: 'blue' },
      preparedMedia: { items: [new HostItem()], totalBytes: 3 },
      signal: newSignal(),
    });
    const received = edit.inputs[0]?.preparedMedia;
    expect(received?.totalBytes).toBe(3);
    const chunks: Uint8Array[] = [];
    for await (const chunk of received?.items[0]?.open() ?? []) chunks.push(chunk);
    expect(chunks).toEqual([new Uint8Array([1, 2, 3])]);
  });

  it('passes a valid callback URL to the async start', async () => {
    const seen: unknown[] = [];
    const start = async (input: { providerCallbackUrl?: string }) => {
      seen.push(input.providerCallbackUrl);
      return { acceptance: { state: 'accepted' as const }, responseMetadata: {}, providerJobId: 'job-1' };
    };
    const engine = createProtocolEngineV1({ registry: registryOf([], [asyncFactory({ start }, [], ASYNC_FAMILY)]) });
    await engine.execute({
      binding: countingBinding(makeTarget(asyncCapability({ callbackUrl: true }))).binding,
      task: videoTask(),
      providerCallbackUrl: 'https://host.example/callbacks/1',
      signal: newSignal(),
    });
    expect(seen).toEqual(['https://host.example/callbacks/1']);
  });

  it('refuses malformed execute inputs and an already aborted signal without binding', async () => {
    const engine = engineFor();
    const { binding, calls } = countingBinding();
    const codes: string[] = [];
    const attempts: unknown[] = [
      null,
      { binding, task: chatTask() },
      { binding, task: chatTask(), signal: {} },
      { binding: { target: makeTarget() }, task: chatTask(), signal: newSignal() },
      { binding: { target: { ...makeTarget(), provider: '' }, bindTransport: async () => ({}) }, task: chatTask(), signal: newSignal() },
    ];
    for (const attempt of attempts) {
      await engine.execute(attempt as never).catch((error: unknown) => codes.push(isProtocolEngineErrorV1(error) ? error.code : 'foreign'));
    }
    expect(codes).toEqual(Array(attempts.length).fill('PROTOCOL_ENGINE_INPUT_INVALID'));
    const controller = new AbortController();
    controller.abort();
    await expect(engine.execute({ binding, task: chatTask(), signal: controller.signal })).rejects.toMatchObject({ code: 'PROTOCOL_ENGINE_ABORTED' });
    expect(calls.count).toBe(0);
  });
});
