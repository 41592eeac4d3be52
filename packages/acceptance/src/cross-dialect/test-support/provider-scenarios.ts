import { readFileSync } from 'node:fs';
import type { UnifiedFinishReasonV1, UsageV3 } from '@tokenforge/model-protocol';
import type { FixtureResponseV1 } from '@tokenforge/provider-adapters';
import { CHUNK_FRAMING, type ChatDialect } from './dialects.js';

/** A tool the client declares (the one the provider's answer calls, so that the exchange is realistic). */
export interface ScenarioTool {
  readonly name: string;
  readonly description: string;
  readonly parameters: Record<string, unknown>;
}

/** One provider answer replayed for every client dialect. */
export interface ProviderScenario {
  /** Short title. */
  readonly name: string;
  /** The provider family that answers. */
  readonly provider: ChatDialect;
  /** Whether the client asks for a stream (and the provider answers with one). */
  readonly stream: boolean;
  /** The file in `__fixtures__/`. */
  readonly file: string;
  /** `recorded` real traffic or `constructed` (see NOTICE.md). */
  readonly origin: 'recorded' | 'constructed';
  /** What the user asks. */
  readonly prompt: string;
  /** The tools the client declares. */
  readonly tools: readonly ScenarioTool[];
  /** Keep only the first of several concatenated responses (a recorded multi-step file). */
  readonly firstResponseOnly?: boolean;
  /** What the provider reported, read off the fixture by hand: the normalized terminal must carry it intact. */
  readonly facts: {
    readonly usage: UsageV3;
    readonly finish: UnifiedFinishReasonV1;
    /** Tool calls in order: name and parsed arguments. */
    readonly toolCalls: readonly { readonly name: string; readonly arguments: unknown }[];
    /** Whether the answer holds visible text, reasoning text. */
    readonly text: boolean;
    readonly reasoning: boolean;
  };
}

const FIXTURES = new URL('../__fixtures__/', import.meta.url);

/** The text of a file in `__fixtures__/`. */
export function fixtureText(file: string): string {
  return readFileSync(new URL(file, FIXTURES), 'utf8');
}

const locationTool = (name: string): ScenarioTool => ({
  name,
  description: 'Current weather for a place.',
  parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
});

/** The provider answers every client dialect is served from: a sync and a stream answer per family at least. */
export const PROVIDER_SCENARIOS: readonly ProviderScenario[] = [
  {
    name: 'openai-chat reasoning text',
    provider: 'openai-chat/v1',
    stream: false,
    file: 'vercel-ai__deepseek-reasoning.json',
    origin: 'recorded',
    prompt: "How many 'r's are in the word 'strawberry'?",
    tools: [locationTool('weather')],
    facts: { usage: { inputTokens: 18, outputTokens: 345, totalTokens: 363, cacheReadInputTokens: 0, reasoningOutputTokens: 315 }, finish: 'stop', toolCalls: [], text: true, reasoning: true },
  },
  {
    name: 'openai-chat reasoning + tool call stream',
    provider: 'openai-chat/v1',
    stream: true,
    file: 'vercel-ai__deepseek-tool-call.chunks.txt',
    origin: 'recorded',
    prompt: 'What is the weather in San Francisco?',
    tools: [locationTool('weather')],
    facts: { usage: { inputTokens: 339, outputTokens: 83, totalTokens: 422, cacheReadInputTokens: 320, reasoningOutputTokens: 39 }, finish: 'tool-calls', toolCalls: [{ name: 'weather', arguments: { location: 'San Francisco' } }], text: false, reasoning: true },
  },
  {
    name: 'openai-responses commentary + answer',
    provider: 'openai-responses/v1',
    stream: false,
    file: 'vercel-ai__openai-phase.1.json',
    origin: 'recorded',
    prompt: 'What is new in AI today?',
    tools: [locationTool('weather')],
    facts: { usage: { inputTokens: 7243, outputTokens: 423, totalTokens: 7666, cacheReadInputTokens: 3072, reasoningOutputTokens: 58, serviceTier: 'default' }, finish: 'stop', toolCalls: [], text: true, reasoning: false },
  },
  {
    name: 'openai-responses encrypted reasoning + tool call stream',
    provider: 'openai-responses/v1',
    stream: true,
    file: 'vercel-ai__openai-reasoning-encrypted-content.1.chunks.txt',
    origin: 'recorded',
    prompt: 'Add 12 and 7 with the calculator.',
    tools: [
      {
        name: 'calculator',
        description: 'Arithmetic on two numbers.',
        parameters: {
          type: 'object',
          properties: { a: { type: 'number' }, b: { type: 'number' }, op: { type: 'string', enum: ['add', 'multiply'] } },
          required: ['a', 'b', 'op'],
        },
      },
    ],
    firstResponseOnly: true,
    facts: { usage: { inputTokens: 134, outputTokens: 28, totalTokens: 162, cacheReadInputTokens: 0, reasoningOutputTokens: 0, serviceTier: 'default' }, finish: 'tool-calls', toolCalls: [{ name: 'calculator', arguments: { a: 12, b: 7, op: 'add' } }], text: false, reasoning: true },
  },
  {
    name: 'anthropic tool call with nested input',
    provider: 'anthropic-messages/v1',
    stream: false,
    file: 'vercel-ai__anthropic-json-tool.1.json',
    origin: 'recorded',
    prompt: 'Weather of four cities as JSON.',
    tools: [{ name: 'json', description: 'Respond with a JSON object.', parameters: { type: 'object' } }],
    facts: { usage: { inputTokens: 1151, outputTokens: 87, cacheReadInputTokens: 0, cacheWriteInputTokens: 0, cacheWriteInputTokensByTtl: { fiveMinutes: 0, oneHour: 0 }, serviceTier: 'standard' }, finish: 'tool-calls', toolCalls: [{ name: 'json', arguments: { elements: [{ location: 'San Francisco', temperature: -5, condition: 'snowy' }, { location: 'London', temperature: 0, condition: 'snowy' }, { location: 'Paris', temperature: 23, condition: 'cloudy' }, { location: 'Berlin', temperature: -9, condition: 'snowy' }] } }], text: false, reasoning: false },
  },
  {
    name: 'anthropic text + tool without arguments stream',
    provider: 'anthropic-messages/v1',
    stream: true,
    file: 'vercel-ai__anthropic-tool-no-args.chunks.txt',
    origin: 'recorded',
    prompt: 'Update the issue list.',
    tools: [{ name: 'updateIssueList', description: 'Refresh the issue list.', parameters: { type: 'object', properties: {} } }],
    facts: { usage: { inputTokens: 565, outputTokens: 48, cacheReadInputTokens: 0, cacheWriteInputTokens: 0, cacheWriteInputTokensByTtl: { fiveMinutes: 0, oneHour: 0 }, serviceTier: 'standard' }, finish: 'tool-calls', toolCalls: [{ name: 'updateIssueList', arguments: {} }], text: true, reasoning: false },
  },
  {
    name: 'anthropic signed thinking, redacted thinking, cache',
    provider: 'anthropic-messages/v1',
    stream: false,
    file: 'constructed__anthropic-thinking-tool.json',
    origin: 'constructed',
    prompt: 'What is the weather in Paris?',
    tools: [locationTool('get_weather')],
    facts: { usage: { inputTokens: 1120, outputTokens: 85, cacheReadInputTokens: 1000, cacheWriteInputTokens: 100, reasoningOutputTokens: 40, serverToolRequests: { webSearch: 1 }, serviceTier: 'standard' }, finish: 'tool-calls', toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }], text: true, reasoning: true },
  },
  {
    name: 'anthropic signed thinking, redacted thinking, cache stream',
    provider: 'anthropic-messages/v1',
    stream: true,
    file: 'constructed__anthropic-thinking-tool.chunks.txt',
    origin: 'constructed',
    prompt: 'What is the weather in Paris?',
    tools: [locationTool('get_weather')],
    facts: { usage: { inputTokens: 1120, outputTokens: 85, cacheReadInputTokens: 1000, cacheWriteInputTokens: 100, reasoningOutputTokens: 40 }, finish: 'tool-calls', toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris', unit: 'c' } }], text: true, reasoning: true },
  },
  {
    name: 'gemini signed tool call with thoughts tokens',
    provider: 'gemini-generate-content/v1',
    stream: false,
    file: 'vercel-ai__google-tool-call-gemini3.json',
    origin: 'recorded',
    prompt: 'What is the weather in San Francisco?',
    tools: [locationTool('weather')],
    facts: { usage: { inputTokens: 29, outputTokens: 1816, totalTokens: 1845, reasoningOutputTokens: 1801, inputTokensByModality: { text: 29 } }, finish: 'tool-calls', toolCalls: [{ name: 'weather', arguments: { location: 'San Francisco' } }], text: false, reasoning: false },
  },
  {
    name: 'gemini streamed partial tool arguments',
    provider: 'gemini-generate-content/v1',
    stream: true,
    file: 'vercel-ai__google-stream-tool-call-arguments.chunks.txt',
    origin: 'recorded',
    prompt: 'Weather in Boston and San Francisco?',
    tools: [locationTool('getWeather')],
    facts: { usage: { inputTokens: 26, outputTokens: 155, totalTokens: 181, reasoningOutputTokens: 132, inputTokensByModality: { text: 26 }, outputTokensByModality: { text: 23 } }, finish: 'tool-calls', toolCalls: [{ name: 'getWeather', arguments: { location: 'Boston' } }, { name: 'getWeather', arguments: { location: 'San Francisco' } }], text: false, reasoning: false },
  },
  {
    name: 'gemini thoughts with a trailing signature stream',
    provider: 'gemini-generate-content/v1',
    stream: true,
    file: 'constructed__gemini-reasoning-signature.chunks.txt',
    origin: 'constructed',
    prompt: 'What is two plus two?',
    tools: [locationTool('weather')],
    facts: { usage: { inputTokens: 8, outputTokens: 15, totalTokens: 23, reasoningOutputTokens: 12 }, finish: 'stop', toolCalls: [], text: true, reasoning: true },
  },
];

/** The recorded lines of the first response of a multi-response chunks file (each starts with `response.created`). */
function firstResponseLines(text: string): string {
  const lines = text.split('\n').filter((line) => line.trim().length > 0);
  const second = lines.findIndex((line, index) => index > 0 && line.includes('"type":"response.created"'));
  return (second === -1 ? lines : lines.slice(0, second)).join('\n');
}

/** The fixture transport response of a scenario: the recorded file as the provider sent it. */
export function scenarioResponse(scenario: ProviderScenario): FixtureResponseV1 {
  const raw = fixtureText(scenario.file);
  if (!scenario.stream) return { label: scenario.file, headers: { 'content-type': 'application/json' }, body: { type: 'text', text: raw } };
  const text = scenario.firstResponseOnly === true ? firstResponseLines(raw) : raw;
  return { label: scenario.file, body: { type: 'chunks', text, framing: CHUNK_FRAMING[scenario.provider] } };
}

type Json = Record<string, unknown>;

function payloads(scenario: ProviderScenario): Json[] {
  const raw = fixtureText(scenario.file);
  if (!scenario.stream) return [JSON.parse(raw) as Json];
  const text = scenario.firstResponseOnly === true ? firstResponseLines(raw) : raw;
  return text
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as Json);
}

function asArray(value: unknown): Json[] {
  return Array.isArray(value) ? (value as Json[]) : [];
}

/**
 * The opaque provider state (reasoning signatures, thought signatures, encrypted reasoning) the fixture carries, in
 * the order the provider wrote it: what a client of the same dialect must get back byte for byte.
 */
export function recordedSignatures(scenario: ProviderScenario): string[] {
  const found: string[] = [];
  const keep = (value: unknown): void => {
    if (typeof value === 'string' && value.length > 0) found.push(value);
  };
  for (const payload of payloads(scenario)) {
    switch (scenario.provider) {
      case 'anthropic-messages/v1':
        for (const block of asArray(payload.content)) if (block.type === 'thinking') keep(block.signature);
        if ((payload.delta as Json | undefined)?.type === 'signature_delta') keep((payload.delta as Json).signature);
        break;
      case 'gemini-generate-content/v1':
        for (const candidate of asArray(payload.candidates)) {
          for (const part of asArray((candidate.content as Json | undefined)?.parts)) keep(part.thoughtSignature);
        }
        break;
      case 'openai-responses/v1': {
        // A stream re-encrypts reasoning in every event; the item's own final state is its `output_item.done`.
        const items = scenario.stream ? (payload.type === 'response.output_item.done' ? [payload.item as Json] : []) : asArray(payload.output);
        for (const item of items) if (item.type === 'reasoning') keep(item.encrypted_content);
        break;
      }
      case 'openai-chat/v1':
        for (const choice of asArray(payload.choices)) {
          const message = (choice.message ?? choice.delta) as Json | undefined;
          for (const call of asArray(message?.tool_calls)) keep(((call.extra_content as Json | undefined)?.google as Json | undefined)?.thought_signature);
        }
        break;
      default: {
        const unknownProvider: never = scenario.provider;
        throw new Error(String(unknownProvider));
      }
    }
  }
  return found;
}
