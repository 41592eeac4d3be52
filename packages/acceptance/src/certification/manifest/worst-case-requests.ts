import type { CertificationManifestV1, ManifestCaseV1 } from './certification-manifest-v1.js';

/** The most engine operations a run of a manifest can make, by kind. */
export interface WorstCaseRequestsV1 {
  /** One `engine.execute` per case (sync, stream or async start). */
  readonly executionStarts: number;
  /** `engine.jobs.get` observations: each async case's `maxPolls`. */
  readonly asyncGetObservations: number;
  /** `engine.jobs.list` observations: one per async case with `listAfterSuccess`. */
  readonly asyncListObservations: number;
  /** The sum: what `caps.maxRequests` must be at least. */
  readonly total: number;
}

/** The worst-case operations of one case. */
export function worstCaseRequestsOfCase(manifestCase: ManifestCaseV1): WorstCaseRequestsV1 {
  const polls = manifestCase.async?.maxPolls ?? 0;
  const lists = manifestCase.async?.listAfterSuccess === true ? 1 : 0;
  return { executionStarts: 1, asyncGetObservations: polls, asyncListObservations: lists, total: 1 + polls + lists };
}

/**
 * The exact worst case of a manifest: a sync or stream case is one request; an async case is one start, at most
 * `maxPolls` gets and, where used, one list. A list call of a family that merges several provider endpoints may send
 * more than one HTTP request; the cap counts engine operations.
 */
export function worstCaseRequests(manifest: Pick<CertificationManifestV1, 'cases'>): WorstCaseRequestsV1 {
  let executionStarts = 0;
  let asyncGetObservations = 0;
  let asyncListObservations = 0;
  for (const manifestCase of manifest.cases) {
    const one = worstCaseRequestsOfCase(manifestCase);
    executionStarts += one.executionStarts;
    asyncGetObservations += one.asyncGetObservations;
    asyncListObservations += one.asyncListObservations;
  }
  return { executionStarts, asyncGetObservations, asyncListObservations, total: executionStarts + asyncGetObservations + asyncListObservations };
}

/** The least wall time the polling of a manifest's async cases can take at its bounds, in milliseconds. */
export function worstCasePollingMs(manifest: Pick<CertificationManifestV1, 'cases'>): number {
  return manifest.cases.reduce((sum, manifestCase) => sum + (manifestCase.async === undefined ? 0 : manifestCase.async.maxPolls * manifestCase.async.pollIntervalMs), 0);
}
