import { parseSafeJson } from '../../codec-kit/index.js';

/**
 * Members of a compaction block beside its `content` that are sent back with it verbatim: `encrypted_content`
 * ("opaque metadata from prior compaction"), `signature` ("signature over the summary") and `tool_changes` (the tool
 * set changes of the compacted range), as the SDK's `BetaCompactionBlock` and `BetaCompactionBlockParam` list them.
 * https://platform.claude.com/docs/en/build-with-claude/compaction
 */
const COMPACTION_PROVIDER_KEYS: ReadonlySet<string> = new Set(['encrypted_content', 'signature', 'tool_changes']);

/** The members of `value` the block carries verbatim, in their own order; `null` ones are absent. */
export type AnthropicCompactionFields = Readonly<Record<string, unknown>>;

/**
 * Reads the verbatim members of a compaction block (or `compaction_delta`) onto `into` (a later value replaces an
 * earlier one), or returns the name of the first malformed one (`encrypted_content` and `signature` must be strings,
 * `tool_changes` a list). Returns `into`, or `undefined` when there is none.
 */
export function readAnthropicCompactionFields(
  value: Readonly<Record<string, unknown>>,
  into: Record<string, unknown> | undefined,
): { readonly fields: Record<string, unknown> | undefined } | { readonly malformed: string } {
  let fields = into;
  for (const key of Object.keys(value)) {
    if (!COMPACTION_PROVIDER_KEYS.has(key)) continue;
    const member = value[key];
    if (member === null || member === undefined) continue;
    if (key === 'tool_changes' ? !Array.isArray(member) : typeof member !== 'string') return { malformed: key };
    fields ??= {};
    fields[key] = member;
  }
  return { fields };
}

/** The part's `providerFields` text for the verbatim members (`undefined` for none). */
export function anthropicCompactionFieldsText(fields: Record<string, unknown> | undefined): string | undefined {
  return fields === undefined ? undefined : JSON.stringify(fields);
}

/**
 * The verbatim members of a part's `providerFields` text, to write back on the block: only the keys this family
 * carries, from an object (the text is the family's own, but it travelled through a task or answer, so it is read
 * with the safe parser and anything else in it is ignored).
 */
export function anthropicCompactionFieldsOf(text: string | undefined): AnthropicCompactionFields {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = parseSafeJson(text);
  } catch {
    return {};
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const read = readAnthropicCompactionFields(value as Record<string, unknown>, undefined);
  return 'fields' in read && read.fields !== undefined ? read.fields : {};
}
