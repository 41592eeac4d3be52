import { diagnosticForError, reportDiagnostic, type DiagnosticReport } from '../../codec-kit/diagnostic-for-error.js';
import { CONTRACT_BOUNDS_V1 as BOUNDS, type AdapterTerminalOutcomeV3, type ChatOutputPartV1, type NormalizedProviderFailureV1 } from '@tokenforge/model-protocol';
import { isProtocolViolationError, ProtocolViolationError } from '../../codec-kit/protocol-violation-error.js';
import { reportedCostField } from '../../codec-kit/reported-cost.js';
import { convertOpenAiChatUsage } from './convert-usage.js';
import { deriveOpenAiChatToolCallId } from './derive-tool-call-id.js';
import { mapOpenAiChatFinishReasonFailure, mapOpenAiChatInBandError } from './map-error.js';
import { mapOpenAiChatFinishReason } from './map-finish-reason.js';
import { readOpenAiChatCompletion, type OpenAiChatWireMessage } from './wire-readers.js';

/** What a sync body decodes to. */
export interface OpenAiChatDecodedResponse {
  /** The terminal outcome (a protocol violation is a failed terminal, never a throw). */
  readonly terminal: AdapterTerminalOutcomeV3;
  /** The `model` the server reported, when non-empty (for response metadata). */
  readonly providerModel?: string;
}

/** The failure for an answer with more than one choice: this family never asks for `n > 1`. */
export const OPENAI_CHAT_MULTIPLE_CHOICES_FAILURE: NormalizedProviderFailureV1 = Object.freeze({
  code: 'unsupported',
  retryable: false,
});

const PROTOCOL_VIOLATION_FAILURE: NormalizedProviderFailureV1 = Object.freeze({ code: 'protocol-violation', retryable: false });

function messageParts(message: OpenAiChatWireMessage): ChatOutputPartV1[] {
  const parts: ChatOutputPartV1[] = [];
  // `reasoning_content` (DeepSeek, Qwen, xAI) wins over `reasoning` (OpenRouter): hosts that send both send the same text.
  const reasoning = message.reasoning_content ?? message.reasoning;
  if (reasoning !== undefined && reasoning.length > 0) parts.push({ type: 'reasoning', text: reasoning });
  if (message.content !== undefined && message.content.length > 0) parts.push({ type: 'text', text: message.content });
  if (message.refusal !== undefined && message.refusal.length > 0) parts.push({ type: 'refusal', text: message.refusal });
  const calls = message.tool_calls ?? [];
  calls.forEach((call, position) => {
    const name = call.name as string;
    if (name.length > BOUNDS.toolNameMaxLength || (call.id?.length ?? 0) > BOUNDS.toolCallIdMaxLength) {
      throw new ProtocolViolationError('invalid-event', `openai-chat tool call ${position} name or id is too long`);
    }
    parts.push({
      type: 'tool-call',
      toolCallId: call.id !== undefined && call.id.length > 0 ? call.id : deriveOpenAiChatToolCallId(parts.length),
      toolName: name,
      argumentsText: call.arguments ?? '',
      ...(call.signature === undefined ? {} : { signature: call.signature }),
    });
  });
  if (message.function_call !== undefined) {
    const { name } = message.function_call;
    if (name === undefined || name.length === 0 || name.length > BOUNDS.toolNameMaxLength) {
      throw new ProtocolViolationError('invalid-event', 'openai-chat function_call.name is missing or too long');
    }
    parts.push({
      type: 'tool-call',
      toolCallId: deriveOpenAiChatToolCallId(parts.length),
      toolName: name,
      argumentsText: message.function_call.arguments ?? '',
    });
  }
  return parts;
}

function decode(body: unknown, costCurrency: string | undefined): OpenAiChatDecodedResponse {
  const completion = readOpenAiChatCompletion(body);
  const providerModel = completion.model !== undefined && completion.model.length > 0 ? completion.model.slice(0, BOUNDS.providerIdentifierMaxLength) : undefined;
  const withModel = <T extends object>(value: T): T & { providerModel?: string } =>
    providerModel === undefined ? value : { ...value, providerModel };
  const usage = completion.usage === undefined ? undefined : convertOpenAiChatUsage(completion.usage);
  const usageField = usage === undefined ? {} : { usage };
  if (completion.error !== undefined) {
    return withModel({ terminal: { status: 'failed', failure: mapOpenAiChatInBandError(completion.error), ...usageField } });
  }
  if (completion.choices.length === 0) throw new ProtocolViolationError('invalid-event', 'openai-chat body has no choice');
  const choice = completion.choices[0];
  if (completion.choices.length > 1 || choice === undefined || choice.index !== 0) {
    return withModel({ terminal: { status: 'failed', failure: OPENAI_CHAT_MULTIPLE_CHOICES_FAILURE, ...usageField } });
  }
  if (choice.message.role !== 'assistant') {
    throw new ProtocolViolationError('invalid-event', 'openai-chat choices.0.message.role must be "assistant"');
  }
  const finishFailure = mapOpenAiChatFinishReasonFailure(choice.finish_reason);
  if (finishFailure !== undefined) return withModel({ terminal: { status: 'failed', failure: finishFailure, ...usageField } });
  const content = messageParts(choice.message);
  const hasToolCalls = content.some((part) => part.type === 'tool-call');
  return withModel({
    terminal: {
      status: 'completed',
      result: { kind: 'chat', content },
      finishReason: mapOpenAiChatFinishReason(choice.finish_reason, hasToolCalls),
      ...usageField,
      ...reportedCostField(completion.usage?.cost, costCurrency),
    },
  });
}

/**
 * Decodes a whole `chat.completion` body (already parsed by the safe JSON parser) into a terminal outcome.
 *
 * Blocks, in this order: reasoning (`reasoning_content`, else `reasoning`), text (`content`), refusal
 * (`refusal`), then each tool call (with Gemini's `extra_content.google.thought_signature` as its signature), then a
 * legacy `function_call`. Empty strings and `null` make no block. A tool
 * call without an id gets a derived one. More than one choice (or a choice index other than 0) is refused as
 * `unsupported`: this family never asks for `n > 1`. An `error` member in a 200 body, or a failure finish
 * reason, is a failed terminal. A body that breaks the protocol is a failed `protocol-violation` terminal.
 * With `costCurrency` (the host's `reportedCostCurrency`), a readable `usage.cost` is the completed terminal's cost.
 */
export function decodeOpenAiChatResponse(body: unknown, report?: DiagnosticReport, costCurrency?: string): OpenAiChatDecodedResponse {
  try {
    return decode(body, costCurrency);
  } catch (error) {
    if (isProtocolViolationError(error)) {
      reportDiagnostic(report, diagnosticForError(error, 'protocol-violation'));
      return { terminal: { status: 'failed', failure: PROTOCOL_VIOLATION_FAILURE } };
    }
    throw error;
  }
}

