import type { AdapterTerminalOutcomeV4, FinishReasonV1, UsageV1 } from '@tokenforge/model-protocol';
import type { ChatDialect } from './dialects.js';
import type { ClientToolCall, ClientUsage, ClientView } from './sdk-clients.js';

/*
 * The translation table of docs/translation-table.md as code: from the normalized facts (the engine's completed
 * terminal) and the client dialect, what the client's SDK must rebuild. Written from the table's rules, not from the
 * codecs, so a codec that drifts from the table fails the matrix.
 */

/** Ids Gemini decoders derive when the provider sent none; never shown to Gemini clients. */
const GEMINI_DERIVED_ID_PREFIX = 'gemini-fc-';

function parseArguments(text: string): unknown {
  return text.trim().length === 0 ? {} : (JSON.parse(text) as unknown);
}

function toolCallFor(dialect: ChatDialect, call: { toolCallId: string; toolName: string; argumentsText: string; signature?: string | undefined }): ClientToolCall {
  switch (dialect) {
    case 'openai-chat/v1':
      return { id: call.toolCallId, name: call.toolName, arguments: call.argumentsText, signature: call.signature };
    case 'openai-responses/v1':
      return { id: call.toolCallId, name: call.toolName, arguments: call.argumentsText, signature: undefined };
    case 'anthropic-messages/v1':
      return { id: call.toolCallId, name: call.toolName, arguments: parseArguments(call.argumentsText), signature: undefined };
    case 'gemini-generate-content/v1':
      return {
        id: call.toolCallId.startsWith(GEMINI_DERIVED_ID_PREFIX) ? undefined : call.toolCallId,
        name: call.toolName,
        arguments: parseArguments(call.argumentsText),
        signature: call.signature,
      };
    default: {
      const unknownDialect: never = dialect;
      throw new Error(`unknown dialect ${String(unknownDialect)}`);
    }
  }
}

function finishReasonFor(dialect: ChatDialect, provider: ChatDialect, finishReason: FinishReasonV1 | undefined): string {
  const unified = finishReason?.unified ?? 'stop';
  switch (dialect) {
    case 'openai-chat/v1':
      return unified === 'length' ? 'length' : unified === 'tool-calls' ? 'tool_calls' : unified === 'content-filter' ? 'content_filter' : 'stop';
    case 'openai-responses/v1':
      return unified === 'length' ? 'incomplete:max_output_tokens' : unified === 'content-filter' ? 'incomplete:content_filter' : 'completed';
    case 'anthropic-messages/v1':
      if (provider === dialect && finishReason?.raw !== undefined) return finishReason.raw;
      return { stop: 'end_turn', other: 'end_turn', length: 'max_tokens', 'tool-calls': 'tool_use', 'content-filter': 'refusal', refusal: 'refusal' }[unified];
    case 'gemini-generate-content/v1':
      if (provider === dialect && finishReason?.raw !== undefined) return finishReason.raw;
      return { stop: 'STOP', 'tool-calls': 'STOP', length: 'MAX_TOKENS', 'content-filter': 'SAFETY', refusal: 'SAFETY', other: 'OTHER' }[unified];
    default: {
      const unknownDialect: never = dialect;
      throw new Error(`unknown dialect ${String(unknownDialect)}`);
    }
  }
}

function usageFor(dialect: ChatDialect, usage: UsageV1 | undefined): ClientUsage | undefined {
  const { inputTokens, outputTokens, totalTokens, cacheReadInputTokens, cacheWriteInputTokens, reasoningOutputTokens } = usage ?? {};
  const drop = (value: ClientUsage): ClientUsage =>
    Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as ClientUsage;
  switch (dialect) {
    case 'openai-chat/v1':
    case 'openai-responses/v1':
      // No partial usage: without both counts nothing is written.
      if (inputTokens === undefined || outputTokens === undefined) return undefined;
      return drop({
        inputTokens,
        outputTokens,
        totalTokens: totalTokens ?? inputTokens + outputTokens,
        cacheReadInputTokens,
        cacheWriteInputTokens,
        reasoningOutputTokens,
      });
    case 'anthropic-messages/v1':
      // Required fields: an unreported count is written as 0; no total and no reasoning breakdown.
      return drop({
        inputTokens: inputTokens ?? (cacheReadInputTokens ?? 0) + (cacheWriteInputTokens ?? 0),
        outputTokens: outputTokens ?? 0,
        cacheReadInputTokens,
        cacheWriteInputTokens,
      });
    case 'gemini-generate-content/v1': {
      if (usage === undefined) return undefined;
      // No cache-write field.
      const value = drop({
        inputTokens,
        outputTokens,
        totalTokens: totalTokens ?? (inputTokens !== undefined && outputTokens !== undefined ? inputTokens + outputTokens : undefined),
        cacheReadInputTokens,
        reasoningOutputTokens,
      });
      return Object.keys(value).length === 0 ? undefined : value;
    }
    default: {
      const unknownDialect: never = dialect;
      throw new Error(`unknown dialect ${String(unknownDialect)}`);
    }
  }
}

/**
 * What a client of `dialect` must rebuild from a completed chat terminal that provider family `provider` produced.
 */
export function expectedClientView(dialect: ChatDialect, provider: ChatDialect, terminal: AdapterTerminalOutcomeV4): ClientView {
  if (terminal.status !== 'completed' || terminal.result.kind !== 'chat') throw new Error('expected a completed chat terminal');
  const text: string[] = [];
  const refusal: string[] = [];
  const reasoning: string[] = [];
  const signatures: string[] = [];
  const redacted: string[] = [];
  const toolCalls: ClientToolCall[] = [];
  const hasRefusalField = dialect === 'openai-chat/v1' || dialect === 'openai-responses/v1';
  for (const part of terminal.result.content) {
    switch (part.type) {
      case 'text':
        text.push(part.text);
        break;
      case 'refusal':
        (hasRefusalField ? refusal : text).push(part.text);
        break;
      case 'reasoning':
        reasoning.push(part.text);
        if (part.signature !== undefined && dialect !== 'openai-chat/v1') signatures.push(part.signature);
        break;
      case 'redacted-reasoning':
        if (dialect === 'anthropic-messages/v1') redacted.push(part.data);
        break;
      case 'tool-call':
        toolCalls.push(toolCallFor(dialect, part));
        break;
      case 'compaction':
        // No recorded answer in the matrix carries compaction (gateway-provider-compaction.test.ts covers it, same and cross dialect).
        throw new Error('a compaction part has no client view in the matrix yet');
      default: {
        const unknownPart: never = part;
        throw new Error(`unknown part ${String(unknownPart)}`);
      }
    }
  }
  return {
    text: text.join(''),
    refusal: refusal.join(''),
    reasoningText: reasoning.join(''),
    reasoningSignatures: signatures,
    redactedReasoning: redacted,
    toolCalls,
    finishReason: finishReasonFor(dialect, provider, terminal.finishReason),
    usage: usageFor(dialect, terminal.usage),
  };
}
