const MARKER = Symbol.for('tokenforge.governance-store-error-v1');

/**
 * Why a store refused: an admin verb's id exists (`conflict`) or a key's tenant does not (`not-found`); or the
 * embedded store's data directory is held by another live process (`data-directory-in-use`).
 */
export type GovernanceStoreErrorCodeV1 = 'conflict' | 'not-found' | 'data-directory-in-use';

/** A store refused a verb or could not open; the store changed nothing. The message names no value. */
export class GovernanceStoreErrorV1 extends Error {
  readonly [MARKER] = true;
  readonly code: GovernanceStoreErrorCodeV1;
  constructor(code: GovernanceStoreErrorCodeV1, message: string) {
    super(message);
    this.name = 'GovernanceStoreErrorV1';
    this.code = code;
  }
}

/** Recognises a {@link GovernanceStoreErrorV1} across realms and package copies. */
export function isGovernanceStoreErrorV1(value: unknown): value is GovernanceStoreErrorV1 {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
}
