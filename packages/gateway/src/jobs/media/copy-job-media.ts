import { createHash } from 'node:crypto';
import { sendOutboundRequest, type AddressRules } from '@tokenforge/http-transport';
import type { TrackedJobKeyV1, TrackedJobTerminalV1 } from '../../governance/v1/governance-store-v1.js';
import type { JobMediaStore } from './job-media-store.js';

/** How result media are copied. */
export interface JobMediaCopyOptions {
  readonly store: JobMediaStore;
  /** The largest asset copied, in bytes; a larger one is left at the provider. */
  readonly maxBytes: number;
  /** One download's deadline. */
  readonly timeoutMs: number;
  /** Whether result URLs on loopback may be fetched (tests, a local provider); never private or metadata addresses. */
  readonly allowLoopback: boolean;
  /** PEM authorities to trust instead of the system roots. */
  readonly trustedCertificates?: readonly string[];
  readonly onError?: (error: unknown) => void;
}

/** The store key of a job's `index`-th asset: the tenant, then a digest of target and provider job id. */
export function jobMediaKey(job: TrackedJobKeyV1, index: number): string {
  const digest = createHash('sha256').update(`${job.targetRef}\u0000${job.providerJobId}`).digest('base64url').slice(0, 32);
  return `${createHash('sha256').update(job.tenantId).digest('base64url').slice(0, 16)}/${digest}/${index}`;
}

/**
 * Copies each result asset of a finished job into the media store, through the transport's outbound request (the
 * upstream address policy, no redirects, a deadline, a size limit), and answers the terminal facts with each copied
 * item's `storedKey`. An asset that cannot be fetched stays the provider's URL only (never fails the job).
 */
export async function copyJobMedia(options: JobMediaCopyOptions, job: TrackedJobKeyV1, terminal: TrackedJobTerminalV1): Promise<TrackedJobTerminalV1> {
  if (terminal.media === undefined || terminal.media.length === 0) return terminal;
  const media = await Promise.all(
    terminal.media.map(async (item, index) => {
      try {
        const url = new URL(item.url);
        const rules: AddressRules = { allowedCategories: new Set(options.allowLoopback ? ['loopback'] : []), plainHttp: url.protocol === 'http:' };
        if (url.protocol !== 'https:' && !(url.protocol === 'http:' && options.allowLoopback)) return item;
        const result = await sendOutboundRequest({
          method: 'GET',
          url,
          rules,
          timeoutMs: options.timeoutMs,
          maxResponseBytes: options.maxBytes,
          ...(options.trustedCertificates === undefined ? {} : { trustedCertificates: options.trustedCertificates }),
        });
        if (result.kind !== 'response' || result.status !== 200 || result.body === undefined) return item;
        const key = jobMediaKey(job, index);
        const contentType = result.headers['content-type'] ?? (item.type === 'video' ? 'video/mp4' : 'image/png');
        await options.store.put(key, { bytes: result.body, contentType });
        return { ...item, storedKey: key };
      } catch (error) {
        options.onError?.(error);
        return item;
      }
    }),
  );
  return { ...terminal, media };
}
