import type { IncomingHttpHeaders } from 'node:http';
import type { ScriptedDialect } from '../scripted/scripted-dialect.js';
import { SIMULATOR_ANTHROPIC_COMPACTION_BETA } from './opaque-history.js';

/**
 * A server-side compaction request, as the provider reads it:
 * - Anthropic: a `compact_20260112` edit in `context_management.edits` (`trigger: {type: "input_tokens", value}`,
 *   default 150000), which needs the `compact-2026-01-12` beta,
 *   https://platform.claude.com/docs/en/build-with-claude/compaction;
 * - Responses: a `compaction` entry of `context_management` with its `compact_threshold`,
 *   https://developers.openai.com/api/docs/guides/compaction.
 * The simulator compacts when its rough input-token count reaches the threshold (it does not hold Anthropic's
 * documented 50000 minimum, so tests can ask for compaction with a small request).
 */
export interface SimulatorCompactionRequest {
  /** The threshold the request named (absent: the provider's default). */
  readonly triggerInputTokens?: number;
  /** Whether the answer opened with a compaction block or item. */
  readonly compacted: boolean;
}

/** Anthropic's documented default trigger. */
const ANTHROPIC_DEFAULT_TRIGGER = 150_000;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function threshold(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

/**
 * The compaction a chat request of `dialect` asks for at `inputTokens`, `undefined` when it asks for none, or the
 * refusal the provider would answer (400): an Anthropic compaction edit without its beta.
 */
export function readSimulatorCompactionRequest(
  dialect: ScriptedDialect,
  body: Json,
  headers: IncomingHttpHeaders,
  inputTokens: number,
): SimulatorCompactionRequest | { readonly refusal: string } | undefined {
  if (dialect === 'anthropic-messages') {
    const edits = isObject(body.context_management) && Array.isArray(body.context_management.edits) ? body.context_management.edits : [];
    const edit = edits.find((entry): entry is Json => isObject(entry) && entry.type === 'compact_20260112');
    if (edit === undefined) return undefined;
    const beta = [headers['anthropic-beta']].flat().join(',').split(',').map((flag) => flag.trim());
    if (!beta.includes(SIMULATOR_ANTHROPIC_COMPACTION_BETA)) return { refusal: `context_management compaction needs the ${SIMULATOR_ANTHROPIC_COMPACTION_BETA} beta` };
    const trigger = isObject(edit.trigger) && edit.trigger.type === 'input_tokens' ? threshold(edit.trigger.value) : undefined;
    return { ...(trigger === undefined ? {} : { triggerInputTokens: trigger }), compacted: inputTokens >= (trigger ?? ANTHROPIC_DEFAULT_TRIGGER) };
  }
  if (dialect === 'openai-responses') {
    const entries = Array.isArray(body.context_management) ? body.context_management : [];
    const entry = entries.find((candidate): candidate is Json => isObject(candidate) && candidate.type === 'compaction');
    if (entry === undefined) return undefined;
    const trigger = threshold(entry.compact_threshold);
    return { ...(trigger === undefined ? {} : { triggerInputTokens: trigger }), compacted: trigger !== undefined && inputTokens >= trigger };
  }
  return undefined;
}

/** The simulated compaction payload: Anthropic's summary text, Responses' opaque `encrypted_content`. */
export function simulatorCompactionPayload(dialect: ScriptedDialect): string {
  return dialect === 'anthropic-messages' ? '<summary>\nSimulated summary of the conversation so far.\n</summary>' : 'Z0FBQUFBQnNpbXVsYXRlZC1jb21wYWN0aW9u';
}
