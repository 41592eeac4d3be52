import type { ProtocolFamily, ProviderRateLimitsV3 } from '@tokenforge/model-protocol';
import { sameRateLimitHeaderDialect, writeRateLimitHeaders, type TokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';
import type { RuntimeTarget } from '../runtime/resolve-catalogue.js';

/** The rate-limit header dialect of a family, as its suite entry declares it (none for async or undeclared families). */
function rateLimitHeadersOf(suite: Pick<TokenForgeProtocolSuiteV1, 'entries'>, family: ProtocolFamily) {
  const entry = suite.entries.find((candidate) => candidate.protocolFamily === family);
  return entry?.execution === 'sync' ? entry.rateLimitHeaders : undefined;
}

/** What decides whether an attempt's rate limits reach the client. */
export interface PassedRateLimitHeadersInput {
  readonly suite: Pick<TokenForgeProtocolSuiteV1, 'entries'>;
  /** The client's dialect family. */
  readonly clientFamily: ProtocolFamily;
  readonly target: RuntimeTarget;
  /** The target's place in the model's target list. */
  readonly targetIndex: number;
  /** The rate limits of the attempt's response head. */
  readonly rateLimits: ProviderRateLimitsV3 | undefined;
  /** The clock, in epoch milliseconds (reset times are written relative to it). */
  readonly now: () => number;
}

/**
 * The rate-limit headers an attempt's answer passes to the client: only when the target opted in, only from the
 * first target (never after a fallback: the client would read another account's quota as its own), and only to a
 * client whose dialect writes rate limits the way the target's does.
 */
export function passedRateLimitHeaders(input: PassedRateLimitHeadersInput): Record<string, string> {
  if (!input.target.passRateLimitHeaders || input.targetIndex !== 0 || input.rateLimits === undefined) return {};
  const clientDialect = rateLimitHeadersOf(input.suite, input.clientFamily);
  const targetDialect = rateLimitHeadersOf(input.suite, input.target.family);
  if (clientDialect === undefined || targetDialect === undefined || !sameRateLimitHeaderDialect(clientDialect, targetDialect)) return {};
  return writeRateLimitHeaders(input.rateLimits, clientDialect, input.now());
}
