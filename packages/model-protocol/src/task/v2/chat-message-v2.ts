import { z } from 'zod';
import { chatContentPartV2Schema, type ChatContentPartV2 } from './chat-content-part-v2.js';

/** Which part types each role may carry. */
const ALLOWED_PARTS: Readonly<Record<ChatMessageV2['role'], ReadonlySet<ChatContentPartV2['type']>>> = {
  user: new Set(['text', 'image', 'document', 'audio']),
  assistant: new Set(['text', 'tool-call', 'reasoning', 'redacted-reasoning']),
  tool: new Set(['tool-result']),
};

/** One turn of a conversation. System instructions are not a message: see `ChatTaskV2.system`. */
export const chatMessageV2Schema = z
  .strictObject({
    /** `user` (text and media), `assistant` (text, tool calls, reasoning) or `tool` (tool results). */
    role: z.enum(['user', 'assistant', 'tool']),
    /** The parts, in order; at least one. */
    content: z.array(chatContentPartV2Schema).min(1),
  })
  .superRefine(checkRoleParts);

/**
 * The role rule of chat messages (V2 and V3 alike): which part types each role may carry. A zod refinement:
 * adds one issue per part its role cannot hold.
 */
export function checkRoleParts(
  message: { readonly role: ChatMessageV2['role']; readonly content: readonly { readonly type: string }[] },
  context: z.RefinementCtx,
): void {
  const allowed: ReadonlySet<string> = ALLOWED_PARTS[message.role];
  message.content.forEach((part, index) => {
    if (!allowed.has(part.type)) {
      context.addIssue({
        code: 'custom',
        path: ['content', index, 'type'],
        message: `a ${message.role} message cannot hold a ${part.type} part`,
      });
    }
  });
}
export type ChatMessageV2 = {
  /** `user` (text and media), `assistant` (text, tool calls, reasoning) or `tool` (tool results). */
  role: 'user' | 'assistant' | 'tool';
  /** The parts, in order; at least one. */
  content: ChatContentPartV2[];
};
