import { CONTRACT_BOUNDS_V3, type TokensByModalityV3 } from '@tokenforge/model-protocol';
import { isWireCount, isWireRecord } from './wire-readers.js';

/*
 * Tolerant readers of usage details. A detail only adds information to the figures around it, so a detail that
 * is absent, null or malformed is left out (never guessed, never zero) instead of failing the answer.
 */

/** Largest detail figure read: the same bound as the families' token counts. */
const MAX_DETAIL = 2 ** 51;
const SERVICE_TIER = /^[A-Za-z0-9_.:-]+$/;

/** A detail count, or `undefined` when it is absent, null or not a count. */
export function readDetailCount(value: unknown): number | undefined {
  return isWireCount(value, MAX_DETAIL) ? value : undefined;
}

/** A detail object, or `undefined` when it is absent, null or not an object. */
export function readDetailRecord(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return isWireRecord(value) ? value : undefined;
}

/** A provider's service tier name as the normalized usage allows it, or `undefined` for anything else. */
export function readServiceTier(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= CONTRACT_BOUNDS_V3.serviceTierMaxLength && SERVICE_TIER.test(value) ? value : undefined;
}

/** An object of the figures that are present, or `undefined` when none is. */
export function presentFigures<T extends Readonly<Record<string, number | undefined>>>(figures: T): T | undefined {
  let result: Record<string, number> | undefined;
  for (const key of Object.keys(figures)) {
    const value = figures[key];
    if (value !== undefined) (result ??= {})[key] = value;
  }
  return result as T | undefined;
}

/** The normalized modality of a provider's upper-case modality name (`TEXT`, `IMAGE`, `AUDIO`, `VIDEO`, `DOCUMENT`). */
const MODALITIES: Readonly<Record<string, keyof TokensByModalityV3>> = { TEXT: 'text', IMAGE: 'image', AUDIO: 'audio', VIDEO: 'video', DOCUMENT: 'document' };

/**
 * Reads a list of `{modality, tokenCount}` entries (Gemini's `*TokensDetails`) into tokens by modality. An entry
 * of an unknown modality, or without a readable count, is left out; repeated modalities add up. `undefined` when
 * nothing was readable.
 */
export function readModalityTokenCounts(value: unknown): TokensByModalityV3 | undefined {
  if (!Array.isArray(value)) return undefined;
  let result: Record<string, number> | undefined;
  for (const entry of value) {
    if (!isWireRecord(entry) || typeof entry.modality !== 'string') continue;
    const modality = Object.hasOwn(MODALITIES, entry.modality) ? MODALITIES[entry.modality] : undefined;
    const count = readDetailCount(entry.tokenCount);
    if (modality === undefined || count === undefined) continue;
    result ??= {};
    result[modality] = (result[modality] ?? 0) + count;
  }
  return result;
}
