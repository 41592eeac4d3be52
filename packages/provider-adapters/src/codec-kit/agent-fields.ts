import { CONTRACT_BOUNDS_V3 } from '@tokenforge/model-protocol';

const PRINTABLE = /^[\x20-\x7E]+$/;

/**
 * A client's end-user identifier as the task's `endUserId`: a printable string of at most
 * `CONTRACT_BOUNDS_V3.endUserIdMaxLength` characters. Anything else (not a string, empty, too long,
 * non-printable) is left out rather than refused: the identifier only adds information. Pure.
 */
export function acceptEndUserId(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > CONTRACT_BOUNDS_V3.endUserIdMaxLength) return undefined;
  return PRINTABLE.test(value) ? value : undefined;
}

/**
 * A list of domain strings of a client's hosted web search, as given (the task schema checks each one: a bad
 * domain is refused, since leaving it out would widen the search). `undefined` for an absent or null list.
 */
export function readDomainList(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) return [String(value)];
  return value.map((entry) => (typeof entry === 'string' ? entry : String(entry)));
}
