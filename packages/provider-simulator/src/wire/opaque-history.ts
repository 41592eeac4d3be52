import type { IncomingHttpHeaders } from 'node:http';
import type { ScriptedDialect } from '../scripted/scripted-dialect.js';

/**
 * The opaque items of long sessions a chat request sent back, as the provider would read them:
 * - Anthropic `compaction` blocks in assistant turns (compaction beta: `{"type":"compaction","content":…}`, `content`
 *   null for a failed compaction; the request must name the `compact-2026-01-12` beta),
 *   https://platform.claude.com/docs/en/build-with-claude/compaction;
 * - Responses `compaction` input items (`{"type":"compaction","id"?,"encrypted_content"}`),
 *   https://platform.openai.com/docs/api-reference/responses/compact, and `reasoning` items sent back by `id`
 *   without `encrypted_content` (reasoning the provider stored), https://platform.openai.com/docs/guides/reasoning.
 */
export interface SimulatorOpaqueHistory {
  /** Compaction payloads, in order: Anthropic `content`, Responses `encrypted_content`, exactly as received. */
  readonly compactions: readonly string[];
  /** Ids of Responses reasoning items sent back without encrypted content, in order. */
  readonly storedReasoningIds: readonly string[];
}

/** The Anthropic beta flag a request carrying a compaction block must name. */
export const SIMULATOR_ANTHROPIC_COMPACTION_BETA = 'compact-2026-01-12';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function anthropicHistory(body: Json, headers: IncomingHttpHeaders): SimulatorOpaqueHistory | { readonly refusal: string } {
  const compactions: string[] = [];
  for (const message of Array.isArray(body.messages) ? body.messages : []) {
    if (!isObject(message) || !Array.isArray(message.content)) continue;
    for (const block of message.content) {
      if (!isObject(block) || block.type !== 'compaction') continue;
      if (message.role !== 'assistant') return { refusal: 'compaction blocks belong to assistant turns' };
      if (block.content === null) continue;
      if (typeof block.content !== 'string' || block.content.length === 0) return { refusal: 'compaction.content must be a non-empty string or null' };
      compactions.push(block.content);
    }
  }
  if (compactions.length > 0) {
    const beta = [headers['anthropic-beta']].flat().join(',').split(',').map((flag) => flag.trim());
    if (!beta.includes(SIMULATOR_ANTHROPIC_COMPACTION_BETA)) return { refusal: `compaction blocks need the ${SIMULATOR_ANTHROPIC_COMPACTION_BETA} beta` };
  }
  return { compactions, storedReasoningIds: [] };
}

function responsesHistory(body: Json): SimulatorOpaqueHistory | { readonly refusal: string } {
  const compactions: string[] = [];
  const storedReasoningIds: string[] = [];
  for (const item of Array.isArray(body.input) ? body.input : []) {
    if (!isObject(item)) continue;
    if (item.type === 'compaction') {
      if (typeof item.encrypted_content !== 'string' || item.encrypted_content.length === 0) return { refusal: 'compaction.encrypted_content is required' };
      compactions.push(item.encrypted_content);
    } else if (item.type === 'reasoning' && (item.encrypted_content === undefined || item.encrypted_content === null)) {
      if (typeof item.id !== 'string' || item.id.length === 0) return { refusal: 'a reasoning item needs its id or its encrypted_content' };
      storedReasoningIds.push(item.id);
    }
  }
  return { compactions, storedReasoningIds };
}

/** What a chat request of `dialect` sent back, or the refusal the provider would answer (400, invalid request). */
export function readSimulatorOpaqueHistory(dialect: ScriptedDialect, body: Json, headers: IncomingHttpHeaders): SimulatorOpaqueHistory | { readonly refusal: string } {
  switch (dialect) {
    case 'anthropic-messages':
      return anthropicHistory(body, headers);
    case 'openai-responses':
      return responsesHistory(body);
    case 'openai-chat':
    case 'gemini':
      return { compactions: [], storedReasoningIds: [] };
    default: {
      const unknown: never = dialect;
      return unknown;
    }
  }
}
