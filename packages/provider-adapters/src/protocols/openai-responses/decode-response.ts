import { diagnosticForError, reportDiagnostic, type DiagnosticReport } from '../../codec-kit/diagnostic-for-error.js';
import type { AdapterTerminalOutcomeV4, ChatOutputPartV4, NormalizedProviderFailureV1, UsageV3 } from '@tokenforge/model-protocol';
import { isProtocolViolationError, ProtocolViolationError } from '../../codec-kit/protocol-violation-error.js';
import { convertOpenAiResponsesUsage } from './convert-usage.js';
import { mapOpenAiResponsesFailure } from './map-error.js';
import { mapOpenAiResponsesFinishReason } from './map-finish-reason.js';
import { joinOpenAiResponsesReasoningText } from './reasoning-text.js';
import { readOpenAiResponsesResponse, type OpenAiResponsesWireOutputItem, type OpenAiResponsesWireResponse } from './wire-readers.js';

/** What a sync body decodes to. */
export interface OpenAiResponsesDecodedResponse {
  /** The terminal outcome (a protocol violation is a failed terminal, never a throw). */
  readonly terminal: AdapterTerminalOutcomeV4;
  /** The `model` the server reported, when non-empty (for response metadata). */
  readonly providerModel?: string;
}

const PROTOCOL_VIOLATION_FAILURE: NormalizedProviderFailureV1 = Object.freeze({ code: 'protocol-violation', retryable: false });

/** The failure of a response the server reports as `cancelled` (this family never cancels one itself). */
export const OPENAI_RESPONSES_CANCELLED_FAILURE: NormalizedProviderFailureV1 = Object.freeze({
  code: 'provider-error',
  retryable: false,
  providerCode: 'cancelled',
});

/** The normalized parts of one output item, in order (server-side tool items make none). */
export function openAiResponsesItemParts(item: OpenAiResponsesWireOutputItem): ChatOutputPartV4[] {
  switch (item.type) {
    case 'message':
      return item.content.map((part): ChatOutputPartV4 => ({ type: part.type === 'output_text' ? 'text' : 'refusal', text: part.text }));
    case 'reasoning':
      return [
        {
          type: 'reasoning',
          text: joinOpenAiResponsesReasoningText(item.summary, item.content),
          ...(item.encryptedContent === undefined ? {} : { signature: item.encryptedContent }),
        },
      ];
    case 'function_call':
      return [{ type: 'tool-call', toolCallId: item.callId, toolName: item.name, argumentsText: item.arguments }];
    case 'compaction':
      return item.encryptedContent === undefined ? [] : [{ type: 'compaction', data: item.encryptedContent, ...(item.id === undefined ? {} : { id: item.id }) }];
    case 'server-side':
      return [];
    default: {
      const unknownItem: never = item;
      throw new ProtocolViolationError('unexpected-event', `openai-responses unknown item ${String(unknownItem)}`);
    }
  }
}

/**
 * The terminal of a finished Response (sync body or terminal stream event) given its content. `eventStatus` is the
 * status the terminal event names (`response.completed` → `completed`...); the body's own `status`, when present,
 * must agree with it.
 */
export function openAiResponsesTerminal(
  response: OpenAiResponsesWireResponse,
  eventStatus: 'completed' | 'incomplete' | 'failed' | undefined,
  content: readonly ChatOutputPartV4[],
  usage: UsageV3 | undefined,
): AdapterTerminalOutcomeV4 {
  const status = eventStatus ?? response.status ?? (response.error === undefined ? 'completed' : 'failed');
  if (eventStatus !== undefined && response.status !== undefined && response.status !== eventStatus) {
    throw new ProtocolViolationError('invalid-event', 'openai-responses terminal event and response status disagree');
  }
  const usageField = usage === undefined ? {} : { usage };
  switch (status) {
    case 'completed':
    case 'incomplete':
      return {
        status: 'completed',
        result: { kind: 'chat', content: [...content] },
        finishReason: mapOpenAiResponsesFinishReason(status, response.incompleteReason, content.some((part) => part.type === 'tool-call')),
        ...usageField,
      };
    case 'failed':
      return { status: 'failed', failure: mapOpenAiResponsesFailure(response.error), ...usageField };
    case 'cancelled':
      return { status: 'failed', failure: OPENAI_RESPONSES_CANCELLED_FAILURE, ...usageField };
    default:
      // `in_progress` and `queued` belong to background mode, which this family never asks for.
      throw new ProtocolViolationError('invalid-event', 'openai-responses response status is not a finished status');
  }
}

function decode(body: unknown): OpenAiResponsesDecodedResponse {
  const response = readOpenAiResponsesResponse(body, 'body');
  const providerModel = response.model !== undefined && response.model.length > 0 ? response.model.slice(0, 256) : undefined;
  const usage = response.usage === undefined ? undefined : convertOpenAiResponsesUsage(response.usage);
  const content = response.output.flatMap(openAiResponsesItemParts);
  const terminal = openAiResponsesTerminal(response, undefined, content, usage);
  return providerModel === undefined ? { terminal } : { terminal, providerModel };
}

/**
 * Decodes a whole Response body (already parsed by the safe JSON parser) into a terminal outcome.
 *
 * Blocks follow `output` in order: each `message` content part is a text (`output_text`) or refusal block, whatever
 * the message's `phase` (`commentary` and `final_answer` messages are both text, in order: the normalized result has
 * no phase, and a client reading only the last text still sees the final answer last); each `reasoning` item is one
 * reasoning block (summary then reasoning texts joined by a blank line; `encrypted_content` as its signature, so an
 * item with only encrypted content is an empty block with a signature); each `function_call` is a tool call
 * (`call_id` is the tool-call id); each `compaction` item is a compaction part (`encrypted_content` as its data,
 * with its `id`); server-side tool items make no block. Status `completed` / `incomplete` is a
 * completed terminal (see `mapOpenAiResponsesFinishReason`), `failed` a failed terminal from `error`, `cancelled` a
 * non-retryable `provider-error`. A body that breaks the protocol is a failed `protocol-violation` terminal.
 */
export function decodeOpenAiResponsesResponse(body: unknown, report?: DiagnosticReport): OpenAiResponsesDecodedResponse {
  try {
    return decode(body);
  } catch (error) {
    if (isProtocolViolationError(error)) {
      reportDiagnostic(report, diagnosticForError(error, 'protocol-violation'));
      return { terminal: { status: 'failed', failure: PROTOCOL_VIOLATION_FAILURE } };
    }
    throw error;
  }
}
