import { CodecErrorV1, type ChatTaskV4 } from '@tokenforge/model-protocol';
import type { RenderedPrompt } from './cli-mapping.js';

/**
 * Renders a chat task into the one prompt a CLI run takes. Carried: system text (joined, handed to the CLI's
 * system flag where it has one, else prefixed), earlier user and assistant text turns (a labelled transcript
 * before the last user turn), reasoning parts of earlier turns (dropped: a CLI cannot replay them). Refused with
 * `unsupported-feature`: images, documents, audio, tool calls and tool results (the CLI runs its own tools; a client's
 * tool loop cannot be carried), and a conversation whose last turn is not the user's.
 *
 * @throws {CodecErrorV1} `unsupported-feature` for anything that cannot be carried.
 */
export function renderPrompt(task: ChatTaskV4): RenderedPrompt {
  const turns = task.messages.map((message) => {
    const texts: string[] = [];
    for (const part of message.content) {
      if (part.type === 'text') texts.push(part.text);
      else if (part.type === 'reasoning' || part.type === 'redacted-reasoning') continue;
      else throw new CodecErrorV1('unsupported-feature', `an agent CLI cannot carry a ${part.type} part`);
    }
    if (message.role === 'tool') throw new CodecErrorV1('unsupported-feature', 'an agent CLI cannot carry tool results');
    return { role: message.role, text: texts.join('\n\n') };
  });
  const last = turns.at(-1);
  if (last === undefined || last.role !== 'user') throw new CodecErrorV1('unsupported-feature', 'an agent CLI run answers a last user turn');
  const earlier = turns.slice(0, -1);
  const transcript = earlier.map((turn) => `[${turn.role === 'user' ? 'User' : 'Assistant'}]\n${turn.text}`).join('\n\n');
  const text = earlier.length === 0 ? last.text : `Earlier turns of this conversation:\n\n${transcript}\n\n[User]\n${last.text}`;
  const system = task.system?.map((part) => part.text).join('\n\n');
  return system === undefined || system.length === 0 ? { text } : { system, text };
}
