import type { ChatOutputPartV1, EgressContextV1, UsageV3 } from '@tokenforge/model-protocol';
import { assertNever } from './assert-never.js';
import { toGeminiUsageMetadata } from './convert-usage.js';
import { parseToolArgumentsObject } from './parse-tool-arguments.js';
import { isDerivedToolCallId } from './tool-call-id.js';

/** One Gemini part on the wire. */
export type WirePart = Record<string, unknown>;

/**
 * A tool call as a `functionCall` part with its whole `args` object and the signature beside it; an id this
 * family derived is left out (the upstream sent none).
 *
 * @throws {CodecErrorV1} `invalid-request` when the arguments are not a JSON object (no Gemini form).
 */
export function toolCallPart(toolCallId: string, toolName: string, argumentsText: string, signature: string | undefined): WirePart {
  const args = parseToolArgumentsObject(argumentsText);
  return {
    functionCall: { name: toolName, args, ...(isDerivedToolCallId(toolCallId) ? {} : { id: toolCallId }) },
    ...(signature === undefined ? {} : { thoughtSignature: signature }),
  };
}

/**
 * Output blocks as Gemini parts: text and refusals as `{text}`; reasoning as `{text, thought: true,
 * thoughtSignature?}`; tool calls as `functionCall {name, args, id?}` plus the signature (ids this family
 * derived are left out: the upstream sent none); redacted reasoning is dropped (no Gemini form).
 */
export function toGeminiParts(content: readonly ChatOutputPartV1[]): WirePart[] {
  const parts: WirePart[] = [];
  for (const part of content) {
    switch (part.type) {
      case 'text':
      case 'refusal':
        parts.push({ text: part.text });
        break;
      case 'reasoning':
        parts.push({ text: part.text, thought: true, ...(part.signature === undefined ? {} : { thoughtSignature: part.signature }) });
        break;
      case 'tool-call':
        parts.push(toolCallPart(part.toolCallId, part.toolName, part.argumentsText, part.signature));
        break;
      case 'redacted-reasoning':
        break;
      default:
        assertNever(part, 'output part');
    }
  }
  return parts;
}

/**
 * A `GenerateContentResponse` envelope: the given fields, `usageMetadata` by the reverse Gemini arithmetic (when
 * usage is given and has figures), `modelVersion` from the context's model label and the context's `responseId`.
 */
export function responseEnvelope(context: EgressContextV1, fields: Record<string, unknown>, usage: UsageV3 | undefined): Record<string, unknown> {
  const usageMetadata = usage === undefined ? undefined : toGeminiUsageMetadata(usage);
  return {
    ...fields,
    ...(usageMetadata === undefined || Object.keys(usageMetadata).length === 0 ? {} : { usageMetadata }),
    modelVersion: context.modelLabel,
    responseId: context.responseId,
  };
}
