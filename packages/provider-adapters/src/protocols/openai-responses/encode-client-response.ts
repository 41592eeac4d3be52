import type { ChatOutputPartV4, EgressContextV1, FinishReasonV1, UsageV3 } from '@tokenforge/model-protocol';
import { encodeOpenAiResponsesEgressUsage, encodeOpenAiResponsesServiceTier } from './encode-client-usage.js';
import { OPENAI_RESPONSES_FREEFORM_INPUT_PROPERTY } from './decode-client-tools.js';

/** An output item as this family writes it for clients. */
export type OpenAiResponsesEgressItem = Record<string, unknown>;

/** The status and `incomplete_details` a finish reason is written as. */
export interface OpenAiResponsesEgressStatus {
  readonly status: 'completed' | 'incomplete';
  readonly incompleteDetails: { readonly reason: 'max_output_tokens' | 'content_filter' } | null;
}

/**
 * `length` is written as `incomplete` with reason `max_output_tokens` and `content-filter` as `incomplete` with
 * `content_filter` (the only reasons Responses has); every other finish reason (`stop`, `tool-calls`, `refusal`,
 * `other`, none) is `completed`: Responses derives tool calls from the output, and a refusal is a refusal part.
 */
export function openAiResponsesEgressStatus(finishReason: FinishReasonV1 | undefined): OpenAiResponsesEgressStatus {
  switch (finishReason?.unified) {
    case 'length':
      return { status: 'incomplete', incompleteDetails: { reason: 'max_output_tokens' } };
    case 'content-filter':
      return { status: 'incomplete', incompleteDetails: { reason: 'content_filter' } };
    default:
      return { status: 'completed', incompleteDetails: null };
  }
}

/** The id of the output item at `outputIndex`: derived from the host's response id, so output is deterministic. */
export function openAiResponsesEgressItemId(prefix: 'msg' | 'rs' | 'fc', context: EgressContextV1, outputIndex: number): string {
  return `${prefix}_${context.responseId}_${outputIndex}`;
}

/** A `message` item holding one `output_text` or `refusal` part. */
export function egressMessageItem(id: string, kind: 'text' | 'refusal', text: string, status: 'in_progress' | 'completed'): OpenAiResponsesEgressItem {
  return { id, type: 'message', status, role: 'assistant', content: status === 'in_progress' ? [] : [egressContentPart(kind, text)] };
}

/** An `output_text` part (with empty `annotations`, which the SDK types require) or a `refusal` part. */
export function egressContentPart(kind: 'text' | 'refusal', text: string): Record<string, unknown> {
  return kind === 'text' ? { type: 'output_text', annotations: [], text } : { type: 'refusal', refusal: text };
}

/** A `reasoning` item: the text as one summary part (none when empty), the signature as `encrypted_content`. */
export function egressReasoningItem(id: string, text: string, signature: string | undefined): OpenAiResponsesEgressItem {
  return {
    id,
    type: 'reasoning',
    summary: text.length === 0 ? [] : [{ type: 'summary_text', text }],
    ...(signature === undefined ? {} : { encrypted_content: signature }),
  };
}

/**
 * A `compaction` item: the payload as `encrypted_content`, with the provider's `id` when it gave one, exactly as the
 * provider wrote them (https://developers.openai.com/api/docs/guides/compaction).
 */
export function egressCompactionItem(part: { readonly data: string; readonly id?: string | undefined }): OpenAiResponsesEgressItem {
  return { ...(part.id === undefined ? {} : { id: part.id }), type: 'compaction', encrypted_content: part.data };
}

/** A `function_call` item. */
export function egressFunctionCallItem(
  id: string,
  call: { readonly toolCallId: string; readonly toolName: string },
  argumentsText: string,
  status: 'in_progress' | 'completed',
): OpenAiResponsesEgressItem {
  return { id, type: 'function_call', status, call_id: call.toolCallId, name: call.toolName, arguments: argumentsText };
}

/** Options of the Responses egress. */
export interface OpenAiResponsesEgressOptionsV1 {
  /**
   * Names of the client's freeform (`custom`) tools: their calls are written as `custom_tool_call` items whose
   * `input` is the one `input` string of the call's arguments (the ingress offered them as such functions).
   */
  readonly freeformToolNames?: readonly string[];
}

/** The `input` text of a freeform tool call: the `input` string of its JSON arguments, else the arguments as sent. */
export function freeformToolInput(argumentsText: string): string {
  try {
    const parsed: unknown = JSON.parse(argumentsText);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      const input = (parsed as Record<string, unknown>)[OPENAI_RESPONSES_FREEFORM_INPUT_PROPERTY];
      if (typeof input === 'string') return input;
    }
  } catch {
    // Arguments that are not JSON are passed on as the text they are.
  }
  return argumentsText;
}

/** A `custom_tool_call` item. */
export function egressCustomToolCallItem(
  id: string,
  call: { readonly toolCallId: string; readonly toolName: string },
  input: string,
  status: 'in_progress' | 'completed',
): OpenAiResponsesEgressItem {
  return { id, type: 'custom_tool_call', status, call_id: call.toolCallId, name: call.toolName, input };
}

/** A tool call as a `function_call` item, or a `custom_tool_call` item for a freeform tool. */
export function egressToolCallItem(
  id: string,
  call: { readonly toolCallId: string; readonly toolName: string },
  argumentsText: string,
  status: 'in_progress' | 'completed',
  options: OpenAiResponsesEgressOptionsV1 | undefined,
): OpenAiResponsesEgressItem {
  if (options?.freeformToolNames?.includes(call.toolName) === true) return egressCustomToolCallItem(id, call, status === 'completed' ? freeformToolInput(argumentsText) : '', status);
  return egressFunctionCallItem(id, call, argumentsText, status);
}

/**
 * The output items of a chat result, one per block in order: text and refusal blocks are one `message` item each
 * (phase is not written: the normalized result has none), reasoning a `reasoning` item, tool calls `function_call`
 * items (`custom_tool_call` for the freeform tools of `options`), compaction a `compaction` item (the seal has left
 * another family's out before this). Redacted reasoning (another dialect's opaque data)
 * has no Responses carrier and is left out.
 */
export function openAiResponsesEgressOutput(
  content: readonly ChatOutputPartV4[],
  context: EgressContextV1,
  options?: OpenAiResponsesEgressOptionsV1,
): OpenAiResponsesEgressItem[] {
  const output: OpenAiResponsesEgressItem[] = [];
  for (const part of content) {
    const outputIndex = output.length;
    switch (part.type) {
      case 'text':
      case 'refusal':
        output.push(egressMessageItem(openAiResponsesEgressItemId('msg', context, outputIndex), part.type, part.text, 'completed'));
        break;
      case 'reasoning':
        output.push(egressReasoningItem(openAiResponsesEgressItemId('rs', context, outputIndex), part.text, part.signature));
        break;
      case 'tool-call':
        output.push(egressToolCallItem(openAiResponsesEgressItemId('fc', context, outputIndex), part, part.argumentsText, 'completed', options));
        break;
      case 'compaction':
        output.push(egressCompactionItem(part));
        break;
      case 'redacted-reasoning':
        break;
      default: {
        const unknownPart: never = part;
        void unknownPart;
      }
    }
  }
  return output;
}

/** Input of {@link openAiResponsesEgressObject}. */
export interface OpenAiResponsesEgressObjectInput {
  readonly status: 'in_progress' | 'completed' | 'incomplete' | 'failed';
  readonly output: readonly OpenAiResponsesEgressItem[];
  readonly usage?: UsageV3 | undefined;
  readonly error?: { readonly code: string; readonly message: string } | undefined;
  readonly incompleteDetails?: OpenAiResponsesEgressStatus['incompleteDetails'];
}

/**
 * A Response object: `id`, `model` and `created_at` (seconds) from the egress context; `status`, `output`, `usage`
 * (or `null`), `error` and `incomplete_details`; and the request echoes the SDK's `Response` type requires, written
 * with neutral values since the egress does not see the client request (`instructions: null`, `tools: []`,
 * `tool_choice: "auto"`, `temperature` / `top_p` `null`, `parallel_tool_calls: true`, `metadata: {}`,
 * `store: false`, `text.format` text). `output_text` is not written: it is an SDK convenience, not wire data.
 */
export function openAiResponsesEgressObject(input: OpenAiResponsesEgressObjectInput, context: EgressContextV1): Record<string, unknown> {
  return {
    id: context.responseId,
    object: 'response',
    created_at: Math.floor(context.createdAtMs / 1000),
    status: input.status,
    background: false,
    error: input.error ?? null,
    incomplete_details: input.incompleteDetails ?? null,
    instructions: null,
    max_output_tokens: null,
    model: context.modelLabel,
    output: input.output,
    parallel_tool_calls: true,
    previous_response_id: null,
    store: false,
    temperature: null,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: [],
    top_p: null,
    truncation: 'disabled',
    usage: encodeOpenAiResponsesEgressUsage(input.usage),
    ...encodeOpenAiResponsesServiceTier(input.usage),
    metadata: {},
  };
}
