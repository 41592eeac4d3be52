import type { ProviderAsyncJobListInputV2 } from '@tokenforge/model-protocol';
import type { KlingVideoEndpoint } from './kling-endpoint.js';

/** Largest `pageNum` Kling accepts. */
export const KLING_MAX_PAGE_NUM = 1000;

/** One provider list request of a host list page. */
export interface KlingListSlice {
  /** The endpoint listed. */
  readonly endpoint: KlingVideoEndpoint;
  /** Kling's `pageNum` (equal to the host's page number). */
  readonly pageNum: number;
  /** Kling's `pageSize`: this endpoint's share of the host's page size. */
  readonly pageSize: number;
}

/**
 * How one host list page maps onto Kling. A Kling list covers one endpoint, and a job lives on the endpoint that
 * created it, so a host page `p` of size `n` is text2video page `p` of size `ceil(n/2)` merged with image2video page
 * `p` of size `floor(n/2)`: one page never holds more than `n` items, page `p` of the merge covers exactly pages
 * `p` of both lists, and walking pages 1, 2, ... until a page comes back empty visits every job of both endpoints.
 *
 * Returns `undefined` when the page cannot be expressed: a page size of 1 (no slot for the second endpoint) or a
 * page number past Kling's 1,000.
 */
export function planKlingJobList(list: ProviderAsyncJobListInputV2): readonly KlingListSlice[] | undefined {
  if (list.pageSize < 2 || list.pageNum > KLING_MAX_PAGE_NUM) return undefined;
  const textSize = Math.ceil(list.pageSize / 2);
  return [
    { endpoint: 'text2video', pageNum: list.pageNum, pageSize: textSize },
    { endpoint: 'image2video', pageNum: list.pageNum, pageSize: list.pageSize - textSize },
  ];
}
