import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI, type GenerateContentResponse, type Part } from '@google/genai';
import OpenAI from 'openai';
import type { ChatDialect } from './dialects.js';
import { GATEWAY_ORIGIN } from './gateway-fetch.js';
import type { ScenarioTool } from './provider-scenarios.js';

/** Usage as a client rebuilds it from its dialect's fields, in normalized arithmetic. */
export interface ClientUsage {
  inputTokens?: number | undefined;
  outputTokens?: number | undefined;
  totalTokens?: number | undefined;
  cacheReadInputTokens?: number | undefined;
  cacheWriteInputTokens?: number | undefined;
  reasoningOutputTokens?: number | undefined;
}

/** A tool call as the client sees it. */
export interface ClientToolCall {
  /** The call id the client can answer with (absent when its dialect shows none). */
  readonly id: string | undefined;
  readonly name: string;
  /** Argument text (OpenAI dialects) or the parsed input object (Anthropic, Gemini). */
  readonly arguments: unknown;
  /** Opaque provider state on the call, where the dialect carries it. */
  readonly signature: string | undefined;
}

/** What an SDK's own parser and accumulator rebuilt, in one shape for every dialect. */
export interface ClientView {
  /** Visible answer text, blocks joined in order. */
  readonly text: string;
  /** Refusal text, in dialects with a refusal field. */
  readonly refusal: string;
  /** Reasoning text (or summary), blocks joined in order. */
  readonly reasoningText: string;
  /** Reasoning signatures / encrypted content the client could replay, in order. */
  readonly reasoningSignatures: readonly string[];
  /** Redacted reasoning payloads, in order. */
  readonly redactedReasoning: readonly string[];
  readonly toolCalls: readonly ClientToolCall[];
  /** The finish reason in the dialect's own vocabulary. */
  readonly finishReason: string;
  readonly usage: ClientUsage | undefined;
}

/** What the client asks for: the same question in every dialect. */
export interface ClientAsk {
  readonly prompt: string;
  readonly tools: readonly ScenarioTool[];
  readonly stream: boolean;
}

export const SYSTEM_PROMPT = 'You are a concise assistant. Use the tools when they help.';
export const CLIENT_MODEL = 'client-model';

function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined && item !== null)) as T;
}

function signatureOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

// ---------------------------------------------------------------- openai-chat

export function openAiClient(fetch: typeof globalThis.fetch): OpenAI {
  return new OpenAI({ apiKey: 'test-key', baseURL: `${GATEWAY_ORIGIN}/v1`, fetch, maxRetries: 0 });
}

export function openAiChatParams(ask: ClientAsk): OpenAI.Chat.ChatCompletionCreateParamsNonStreaming {
  return {
    model: CLIENT_MODEL,
    messages: [
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: ask.prompt },
    ],
    tools: ask.tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } })),
    tool_choice: 'auto',
    reasoning_effort: 'low',
    max_completion_tokens: 4096,
  };
}

function openAiChatUsage(usage: OpenAI.CompletionUsage | undefined): ClientUsage | undefined {
  if (usage === undefined) return undefined;
  const promptDetails = usage.prompt_tokens_details as { cached_tokens?: number; cache_write_tokens?: number } | undefined;
  return defined({
    inputTokens: usage.prompt_tokens,
    outputTokens: usage.completion_tokens,
    totalTokens: usage.total_tokens,
    cacheReadInputTokens: promptDetails?.cached_tokens,
    cacheWriteInputTokens: promptDetails?.cache_write_tokens,
    reasoningOutputTokens: usage.completion_tokens_details?.reasoning_tokens,
  });
}

function openAiChatView(completion: OpenAI.Chat.ChatCompletion, reasoningText: string): ClientView {
  const choice = completion.choices[0];
  if (choice === undefined) throw new Error('no choice');
  const message = choice.message;
  return {
    text: message.content ?? '',
    refusal: message.refusal ?? '',
    reasoningText,
    reasoningSignatures: [],
    redactedReasoning: [],
    toolCalls: (message.tool_calls ?? []).map((call) => {
      if (call.type !== 'function') throw new Error('a custom tool call');
      const extra = (call as { extra_content?: { google?: { thought_signature?: unknown } } }).extra_content;
      return { id: call.id, name: call.function.name, arguments: call.function.arguments, signature: signatureOf(extra?.google?.thought_signature) };
    }),
    finishReason: choice.finish_reason,
    usage: openAiChatUsage(completion.usage),
  };
}

async function runOpenAiChat(fetch: typeof globalThis.fetch, ask: ClientAsk): Promise<ClientView> {
  const client = openAiClient(fetch);
  if (!ask.stream) {
    const completion = await client.chat.completions.create(openAiChatParams(ask));
    const reasoning = (completion.choices[0]?.message as { reasoning_content?: string } | undefined)?.reasoning_content;
    return openAiChatView(completion, reasoning ?? '');
  }
  const runner = client.chat.completions.stream({ ...openAiChatParams(ask), stream: true, stream_options: { include_usage: true } });
  // The SDK accumulator assigns unknown delta fields instead of appending them, so reasoning is read per chunk.
  const reasoning: string[] = [];
  runner.on('chunk', (chunk) => {
    const delta = chunk.choices[0]?.delta as { reasoning_content?: string } | undefined;
    if (typeof delta?.reasoning_content === 'string') reasoning.push(delta.reasoning_content);
  });
  return openAiChatView(await runner.finalChatCompletion(), reasoning.join(''));
}

// ---------------------------------------------------------------- openai-responses

export function openAiResponsesParams(ask: ClientAsk): OpenAI.Responses.ResponseCreateParamsNonStreaming {
  return {
    model: CLIENT_MODEL,
    instructions: SYSTEM_PROMPT,
    input: ask.prompt,
    tools: ask.tools.map((tool) => ({ type: 'function', name: tool.name, description: tool.description, parameters: tool.parameters, strict: false })),
    tool_choice: 'auto',
    reasoning: { effort: 'low', summary: 'auto' },
    max_output_tokens: 4096,
  };
}

function openAiResponsesView(response: OpenAI.Responses.Response): ClientView {
  const text: string[] = [];
  const refusal: string[] = [];
  const reasoning: string[] = [];
  const signatures: string[] = [];
  const toolCalls: ClientToolCall[] = [];
  for (const item of response.output) {
    switch (item.type) {
      case 'message':
        for (const part of item.content) {
          if (part.type === 'output_text') text.push(part.text);
          else refusal.push(part.refusal);
        }
        break;
      case 'reasoning':
        for (const summary of item.summary) reasoning.push(summary.text);
        if (typeof item.encrypted_content === 'string') signatures.push(item.encrypted_content);
        break;
      case 'function_call':
        toolCalls.push({ id: item.call_id, name: item.name, arguments: item.arguments, signature: undefined });
        break;
      default:
        throw new Error(`unexpected output item ${item.type}`);
    }
  }
  const usage = response.usage;
  const inputDetails = usage?.input_tokens_details as { cached_tokens?: number; cache_write_tokens?: number } | undefined;
  return {
    text: text.join(''),
    refusal: refusal.join(''),
    reasoningText: reasoning.join(''),
    reasoningSignatures: signatures,
    redactedReasoning: [],
    toolCalls,
    finishReason: response.status === 'incomplete' ? `incomplete:${response.incomplete_details?.reason ?? ''}` : String(response.status),
    usage:
      usage === undefined || usage === null
        ? undefined
        : defined({
            inputTokens: usage.input_tokens,
            outputTokens: usage.output_tokens,
            totalTokens: usage.total_tokens,
            cacheReadInputTokens: inputDetails?.cached_tokens,
            cacheWriteInputTokens: inputDetails?.cache_write_tokens,
            reasoningOutputTokens: usage.output_tokens_details?.reasoning_tokens,
          }),
  };
}

async function runOpenAiResponses(fetch: typeof globalThis.fetch, ask: ClientAsk): Promise<ClientView> {
  const client = openAiClient(fetch);
  if (!ask.stream) return openAiResponsesView(await client.responses.create(openAiResponsesParams(ask)));
  const stream = client.responses.stream({ ...openAiResponsesParams(ask), stream: true });
  return openAiResponsesView(await stream.finalResponse());
}

// ---------------------------------------------------------------- anthropic-messages

export function anthropicClient(fetch: typeof globalThis.fetch): Anthropic {
  return new Anthropic({ apiKey: 'test-key', baseURL: GATEWAY_ORIGIN, fetch, maxRetries: 0 });
}

export function anthropicParams(ask: ClientAsk): Anthropic.MessageCreateParamsNonStreaming {
  return {
    model: CLIENT_MODEL,
    max_tokens: 4096,
    system: SYSTEM_PROMPT,
    messages: [{ role: 'user', content: ask.prompt }],
    tools: ask.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.parameters as Anthropic.Tool.InputSchema,
    })),
    tool_choice: { type: 'auto' },
    thinking: { type: 'enabled', budget_tokens: 2048 },
  };
}

function anthropicView(message: Anthropic.Message): ClientView {
  const text: string[] = [];
  const reasoning: string[] = [];
  const signatures: string[] = [];
  const redacted: string[] = [];
  const toolCalls: ClientToolCall[] = [];
  for (const block of message.content) {
    switch (block.type) {
      case 'text':
        text.push(block.text);
        break;
      case 'thinking': {
        reasoning.push(block.thinking);
        const signature = signatureOf(block.signature);
        if (signature !== undefined) signatures.push(signature);
        break;
      }
      case 'redacted_thinking':
        redacted.push(block.data);
        break;
      case 'tool_use':
        toolCalls.push({ id: block.id, name: block.name, arguments: block.input, signature: undefined });
        break;
      default:
        throw new Error(`unexpected content block ${block.type}`);
    }
  }
  const usage = message.usage;
  const cacheRead = usage.cache_read_input_tokens ?? undefined;
  const cacheWrite = usage.cache_creation_input_tokens ?? undefined;
  return {
    text: text.join(''),
    refusal: '',
    reasoningText: reasoning.join(''),
    reasoningSignatures: signatures,
    redactedReasoning: redacted,
    toolCalls,
    finishReason: String(message.stop_reason),
    usage: defined({
      inputTokens: usage.input_tokens + (cacheRead ?? 0) + (cacheWrite ?? 0),
      outputTokens: usage.output_tokens,
      cacheReadInputTokens: cacheRead,
      cacheWriteInputTokens: cacheWrite,
    }),
  };
}

async function runAnthropic(fetch: typeof globalThis.fetch, ask: ClientAsk): Promise<ClientView> {
  const client = anthropicClient(fetch);
  if (!ask.stream) return anthropicView(await client.messages.create(anthropicParams(ask)));
  return anthropicView(await client.messages.stream(anthropicParams(ask)).finalMessage());
}

// ---------------------------------------------------------------- gemini-generate-content

export function geminiClient(fetch: typeof globalThis.fetch): GoogleGenAI {
  return new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: GATEWAY_ORIGIN, fetch, retryOptions: { attempts: 1 } } });
}

export function geminiParams(ask: ClientAsk) {
  return {
    model: CLIENT_MODEL,
    contents: [{ role: 'user', parts: [{ text: ask.prompt }] }],
    config: {
      systemInstruction: SYSTEM_PROMPT,
      tools: [{ functionDeclarations: ask.tools.map((tool) => ({ name: tool.name, description: tool.description, parametersJsonSchema: tool.parameters })) }],
      maxOutputTokens: 4096,
      thinkingConfig: { thinkingBudget: 2048, includeThoughts: true },
    },
  };
}

/** Accumulates the parts of one or more `GenerateContentResponse`s, the way a stream consumer concatenates them. */
class GeminiAccumulator {
  private readonly text: string[] = [];
  private readonly reasoning: string[] = [];
  private readonly signatures: string[] = [];
  private readonly toolCalls: ClientToolCall[] = [];
  private finishReason = '';
  private usage: ClientUsage | undefined;

  add(response: GenerateContentResponse): void {
    const candidate = response.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) this.addPart(part);
    if (candidate?.finishReason !== undefined) this.finishReason = candidate.finishReason;
    const blockReason = response.promptFeedback?.blockReason;
    if (blockReason !== undefined) this.finishReason = `blockReason:${blockReason}`;
    const metadata = response.usageMetadata;
    if (metadata !== undefined) {
      const output =
        metadata.candidatesTokenCount === undefined && metadata.thoughtsTokenCount === undefined
          ? undefined
          : (metadata.candidatesTokenCount ?? 0) + (metadata.thoughtsTokenCount ?? 0);
      this.usage = defined({
        inputTokens: metadata.promptTokenCount,
        outputTokens: output,
        totalTokens: metadata.totalTokenCount,
        cacheReadInputTokens: metadata.cachedContentTokenCount,
        reasoningOutputTokens: metadata.thoughtsTokenCount,
      });
    }
  }

  private addPart(part: Part): void {
    const signature = signatureOf(part.thoughtSignature);
    if (part.functionCall !== undefined) {
      this.toolCalls.push({ id: part.functionCall.id, name: part.functionCall.name ?? '', arguments: part.functionCall.args, signature });
      return;
    }
    if (part.thought === true) {
      this.reasoning.push(part.text ?? '');
      if (signature !== undefined) this.signatures.push(signature);
      return;
    }
    if (signature !== undefined) this.signatures.push(signature);
    if (part.text !== undefined) this.text.push(part.text);
  }

  view(): ClientView {
    return {
      text: this.text.join(''),
      refusal: '',
      reasoningText: this.reasoning.join(''),
      reasoningSignatures: this.signatures,
      redactedReasoning: [],
      toolCalls: this.toolCalls,
      finishReason: this.finishReason,
      usage: this.usage,
    };
  }
}

async function runGemini(fetch: typeof globalThis.fetch, ask: ClientAsk): Promise<ClientView> {
  const client = geminiClient(fetch);
  const accumulator = new GeminiAccumulator();
  if (!ask.stream) {
    accumulator.add(await client.models.generateContent(geminiParams(ask)));
    return accumulator.view();
  }
  for await (const chunk of await client.models.generateContentStream(geminiParams(ask))) accumulator.add(chunk);
  return accumulator.view();
}

/** Asks through the official SDK of `dialect` and returns what its parser and accumulator rebuilt. */
export function runClient(dialect: ChatDialect, fetch: typeof globalThis.fetch, ask: ClientAsk): Promise<ClientView> {
  switch (dialect) {
    case 'openai-chat/v1':
      return runOpenAiChat(fetch, ask);
    case 'openai-responses/v1':
      return runOpenAiResponses(fetch, ask);
    case 'anthropic-messages/v1':
      return runAnthropic(fetch, ask);
    case 'gemini-generate-content/v1':
      return runGemini(fetch, ask);
    default: {
      const unknownDialect: never = dialect;
      throw new Error(`unknown dialect ${String(unknownDialect)}`);
    }
  }
}
