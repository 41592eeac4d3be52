import type { ChatMessageV4 as ChatMessageV2, ToolCallPartV2, ToolResultPartV2 } from '@tokenforge/model-protocol';
import { encodeMediaSource } from './encode-media.js';
import { parseToolArgumentsObject } from './parse-tool-arguments.js';
import { isDerivedToolCallId } from './tool-call-id.js';
import { assertNever } from './assert-never.js';

type WirePart = Record<string, unknown>;
/** One `contents[]` entry. */
export interface GeminiContentWire {
  /** `user` (also for function responses) or `model`. */
  role: 'user' | 'model';
  /** The parts, in order; never empty. */
  parts: WirePart[];
}

/** Google's documented placeholder that tells Gemini not to validate a function call's missing signature. */
export const GEMINI_SKIP_SIGNATURE_VALIDATOR = 'skip_thought_signature_validator';

/** What to do with a replayed model turn whose first function call has no signature. */
export type GeminiMissingSignaturePolicy = 'omit' | 'skip-validator';

/**
 * Turns the task's messages into Gemini `contents`:
 * - `user` messages become `user` turns: text, `inlineData`/`fileData` media (see `encodeMediaSource`);
 *   document titles, image detail hints and cache breakpoints have no Gemini form and are dropped (Gemini
 *   caches only through explicit cached contents, so a breakpoint is non-semantic);
 * - `assistant` messages become `model` turns: text; tool calls as `functionCall {name, args, id?}` with the
 *   call's signature replayed unmodified as the part's `thoughtSignature` (Gemini 3 rejects a replayed call
 *   without it); reasoning as `{text, thought: true, thoughtSignature?}` (signatures replayed unmodified; an
 *   empty unsigned reasoning part is left out);
 *   redacted reasoning is dropped: Gemini has no such part, and opaque data from another dialect means
 *   nothing to it;
 * - consecutive `tool` messages become one `user` turn of `functionResponse {name, response, id?, parts?}`
 *   parts (Gemini wants all responses to one turn's calls together), linked by name and, unless the id was
 *   derived by this family, by id. Text content goes in `response.output` (`response.error` when the result is
 *   an error), joined without separator; images go in `functionResponse.parts`.
 * A turn left without parts is omitted. With `missingSignature: 'skip-validator'`, a model turn whose first
 * function call has no signature (history from a dialect that cannot carry one) gets
 * {@link GEMINI_SKIP_SIGNATURE_VALIDATOR} on that call; only the first call of a turn carries a signature in
 * Gemini's own traffic, so later calls are left alone.
 *
 * @throws {CodecErrorV1} `invalid-request` for unparsable tool-call arguments or bad media.
 */
export function encodeGeminiContents(
  messages: readonly ChatMessageV2[],
  missingSignature: GeminiMissingSignaturePolicy = 'omit',
): GeminiContentWire[] {
  const contents: GeminiContentWire[] = [];
  let previousRole: ChatMessageV2['role'] | undefined;
  messages.forEach((message, messageIndex) => {
    const path = `messages.${messageIndex}.content`;
    const parts: WirePart[] = [];
    message.content.forEach((part, partIndex) => {
      const partPath = `${path}.${partIndex}`;
      switch (part.type) {
        case 'text':
          parts.push({ text: part.text });
          break;
        case 'image':
        case 'document':
        case 'audio':
          parts.push(encodeMediaSource(part.source, `${partPath}.source`));
          break;
        case 'tool-call':
          parts.push(encodeToolCall(part, partPath));
          break;
        case 'tool-result':
          parts.push(encodeToolResult(part, partPath));
          break;
        case 'reasoning':
          // A reasoning part with neither text nor signature says nothing Gemini could use.
          if (part.text.length === 0 && part.signature === undefined) break;
          parts.push({ text: part.text, thought: true, ...(part.signature === undefined ? {} : { thoughtSignature: part.signature }) });
          break;
        case 'redacted-reasoning':
        // Another family's compaction: Gemini has no carrier for it.
        case 'compaction':
          break;
        default:
          assertNever(part, 'content part');
      }
    });
    if (missingSignature === 'skip-validator' && message.role === 'assistant') {
      const firstCall = parts.find((part) => part.functionCall !== undefined);
      if (firstCall !== undefined && firstCall.thoughtSignature === undefined) firstCall.thoughtSignature = GEMINI_SKIP_SIGNATURE_VALIDATOR;
    }
    const role = message.role === 'assistant' ? 'model' : 'user';
    const last = contents[contents.length - 1];
    if (message.role === 'tool' && previousRole === 'tool' && last !== undefined) {
      last.parts.push(...parts);
    } else if (parts.length > 0) {
      contents.push({ role, parts });
    }
    previousRole = message.role;
  });
  return contents;
}

function encodeToolCall(part: ToolCallPartV2, path: string): WirePart {
  const args = parseToolArgumentsObject(part.argumentsText, `${path}.argumentsText`);
  return {
    functionCall: {
      name: part.toolName,
      args,
      ...(isDerivedToolCallId(part.toolCallId) ? {} : { id: part.toolCallId }),
    },
    ...(part.signature === undefined ? {} : { thoughtSignature: part.signature }),
  };
}

function encodeToolResult(part: ToolResultPartV2, path: string): WirePart {
  const texts: string[] = [];
  const mediaParts: WirePart[] = [];
  part.content.forEach((item, index) => {
    if (item.type === 'text') texts.push(item.text);
    else mediaParts.push(encodeMediaSource(item.source, `${path}.content.${index}.source`));
  });
  const text = texts.join('');
  return {
    functionResponse: {
      name: part.toolName,
      response: part.isError === true ? { error: text } : { output: text },
      ...(isDerivedToolCallId(part.toolCallId) ? {} : { id: part.toolCallId }),
      ...(mediaParts.length === 0 ? {} : { parts: mediaParts }),
    },
  };
}
