import type { ChatContentPartV4, ChatMessageV4, ProtocolFamily, TaskEnvelopeV4 } from '@tokenforge/model-protocol';
import type { OpaqueStateSeal } from './opaque-state-seal.js';

/** Who sent a task and where it goes, for {@link fitOpaqueStateToTarget}. */
export interface OpaqueStateRoute {
  /** The client's dialect: a value that is not a gateway wrapper is this family's own (the client got it unwrapped). */
  readonly clientFamily: ProtocolFamily;
  /** The family of the target the task goes to: the only family whose values are kept. */
  readonly targetFamily: ProtocolFamily;
  /** The host's seal; without one, no wrapper can be verified and every wrapper is dropped. */
  readonly seal: OpaqueStateSeal | undefined;
  /**
   * Whether an item id is one the host wrote itself (a host's egress names the items of its answers): such an id
   * names nothing a provider stored, so a stored reasoning part carrying it is left out for every target.
   */
  readonly isHostItemId?: (id: string) => boolean;
}

/** A task with every opaque value resolved for one target, and how many values were left out. */
export interface FittedOpaqueState {
  /** The task to send (the same object when nothing changed). */
  readonly task: TaskEnvelopeV4;
  /** Opaque values left out: another family's, or wrappers that did not verify. */
  readonly dropped: number;
  /**
   * The types of the parts left out whole (`compaction`, `redacted-reasoning`, and `reasoning` for a stored
   * reasoning item of another family), each once, in the order first met; empty when none was.
   */
  readonly droppedParts: readonly ChatContentPartV4['type'][];
}

/** The value to send to the target, or `undefined` when it must not reach it. */
function resolve(value: string, route: OpaqueStateRoute): string | undefined {
  const opened = route.seal?.open(value);
  if (opened === 'invalid') return undefined;
  if (opened === undefined) {
    // Without a key a wrapper cannot be told from a raw value by its MAC; its prefix still marks it as ours.
    if (route.seal === undefined && value.startsWith('VEZPM')) return undefined;
    return route.clientFamily === route.targetFamily ? value : undefined;
  }
  return opened.family === route.targetFamily ? opened.value : undefined;
}

/**
 * Resolves the opaque provider state of a conversation for one target: each reasoning `signature`, tool-call
 * `signature`, redacted reasoning `data` and compaction `data` is unwrapped and kept when the family that produced
 * it is the target's (a gateway wrapper names its family; a plain value is the client dialect's own), and
 * otherwise left out (a reasoning part keeps its text, a redacted or compaction part is removed). A stored
 * reasoning item (`storedItemId` without a signature) is kept for the client's own family only and otherwise
 * removed. So a value reaches only the family that made it, byte for byte. Pure.
 */
export function fitOpaqueStateToTarget(task: TaskEnvelopeV4, route: OpaqueStateRoute): FittedOpaqueState {
  if (task.kind !== 'chat' && task.kind !== 'token-count') return { task, dropped: 0, droppedParts: [] };
  let dropped = 0;
  let changed = false;
  const droppedParts = new Set<ChatContentPartV4['type']>();
  const messages = task.messages.map((message): ChatMessageV4 => {
    if (message.role !== 'assistant') return message;
    const content: ChatContentPartV4[] = [];
    let messageChanged = false;
    for (const part of message.content) {
      if (part.type === 'reasoning' && part.storedItemId !== undefined && part.signature === undefined) {
        // A stored reasoning item is only an id at the family that stored it: the client's own, never wrapped.
        if (route.clientFamily === route.targetFamily && route.isHostItemId?.(part.storedItemId) !== true) content.push(part);
        else {
          messageChanged = true;
          dropped += 1;
          droppedParts.add('reasoning');
        }
      } else if ((part.type === 'reasoning' || part.type === 'tool-call') && part.signature !== undefined) {
        const kept = resolve(part.signature, route);
        if (kept === part.signature) content.push(part);
        else {
          messageChanged = true;
          if (kept === undefined) {
            dropped += 1;
            const { signature: _left, ...rest } = part;
            content.push(rest as ChatContentPartV4);
          } else content.push({ ...part, signature: kept });
        }
      } else if (part.type === 'redacted-reasoning' || part.type === 'compaction') {
        const kept = resolve(part.data, route);
        if (kept === part.data) content.push(part);
        else {
          messageChanged = true;
          if (kept === undefined) {
            dropped += 1;
            droppedParts.add(part.type);
          } else content.push({ ...part, data: kept });
        }
      } else content.push(part);
    }
    if (!messageChanged) return message;
    changed = true;
    return { ...message, content };
  });
  // A message left with no part at all is left out (a message needs one part).
  const kept = messages.filter((message) => message.content.length > 0);
  return changed ? { task: { ...task, messages: kept } as TaskEnvelopeV4, dropped, droppedParts: [...droppedParts] } : { task, dropped, droppedParts: [] };
}
