import type { ProtocolFamily } from '@tokenforge/model-protocol';
import { writeRateLimitHeaders, type TokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';
import type { LimitStatesV1 } from '../v1/governance-store-v1.js';

/**
 * The tenant's own request and token windows in the rate-limit headers of the client's dialect, as its suite entry
 * declares them (`x-ratelimit-*-requests` / `-tokens` for OpenAI clients, `anthropic-ratelimit-requests-*` /
 * `-tokens-*` for Anthropic clients); none for a dialect without rate-limit headers or a tenant without those limits.
 */
export function tenantRateLimitHeaders(
  suite: Pick<TokenForgeProtocolSuiteV1, 'entries'>,
  clientFamily: ProtocolFamily,
  limits: LimitStatesV1,
  nowMs: number,
): Record<string, string> {
  if (limits.requests === undefined && limits.tokens === undefined) return {};
  const entry = suite.entries.find((candidate) => candidate.protocolFamily === clientFamily);
  const dialect = entry?.execution === 'sync' ? entry.rateLimitHeaders : undefined;
  if (dialect === undefined) return {};
  return writeRateLimitHeaders(
    {
      ...(limits.requests === undefined ? {} : { requests: limits.requests }),
      ...(limits.tokens === undefined ? {} : { tokens: limits.tokens }),
    },
    dialect,
    nowMs,
  );
}

/** Whether a tenant or key holds a request or token limit (its headers then replace the provider's). */
export function hasWindowLimits(limits: LimitStatesV1 | undefined): boolean {
  return limits !== undefined && (limits.requests !== undefined || limits.tokens !== undefined);
}
