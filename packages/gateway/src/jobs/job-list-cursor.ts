import type { TrackedJobQueryV1, TrackedJobV1 } from '../governance/v1/governance-store-v1.js';

type After = NonNullable<TrackedJobQueryV1['after']>;

/**
 * The `nextCursor` of a page of `GET /v2/jobs`: the last job's place in the list order, base64url JSON. It needs no
 * signature: the list is always narrowed to the caller's tenant, so a made-up cursor only moves within its own jobs.
 */
export function encodeJobListCursor(job: TrackedJobV1): string {
  return Buffer.from(JSON.stringify([job.createdAtMs, job.targetRef, job.providerJobId]), 'utf8').toString('base64url');
}

/** The place a cursor names, or `undefined` when it is not one this gateway wrote. */
export function decodeJobListCursor(cursor: string): After | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 3) return undefined;
    const [createdAtMs, targetRef, providerJobId] = value as unknown[];
    if (typeof createdAtMs !== 'number' || !Number.isSafeInteger(createdAtMs) || typeof targetRef !== 'string' || typeof providerJobId !== 'string') return undefined;
    return { createdAtMs, targetRef, providerJobId };
  } catch {
    return undefined;
  }
}
