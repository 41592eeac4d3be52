import type { UsageV3 } from '@tokenforge/model-protocol';

/** The usage object of an egress Message, `message_start` or `message_delta`. */
export interface AnthropicEgressUsage {
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly cache_creation_input_tokens: number | null;
  readonly cache_read_input_tokens: number | null;
  /** Cache writes by time to live, when the usage splits them. */
  readonly cache_creation?: { readonly ephemeral_5m_input_tokens: number; readonly ephemeral_1h_input_tokens: number };
  /** Hosted-tool requests Anthropic has a place for, when the usage reports any of them. */
  readonly server_tool_use?: { readonly web_search_requests?: number; readonly web_fetch_requests?: number };
  /** The service tier, when it is one of Anthropic's (`standard`, `priority`, `batch`). */
  readonly service_tier?: string;
  /** Output details, when the usage reports reasoning tokens. */
  readonly output_tokens_details?: { readonly thinking_tokens: number };
}

/** The tiers Anthropic's clients know; another dialect's tier (`flex`, `default`) has no meaning here. */
const ANTHROPIC_SERVICE_TIERS: ReadonlySet<string> = new Set(['standard', 'priority', 'batch']);

/**
 * The reverse of `convertAnthropicUsage`, for egress: `input_tokens = inputTokens - cacheReadInputTokens -
 * cacheWriteInputTokens` (Anthropic's input excludes cache traffic; never below 0), the cache figures as they
 * are, `output_tokens = outputTokens`. Anthropic clients require `input_tokens` and `output_tokens`, so an
 * unreported total is written as 0 there; an unreported cache figure is `null`, as the API itself writes it.
 *
 * Details go where Anthropic has a place for them: `cacheWriteInputTokensByTtl` as `cache_creation` (the API
 * writes both members, so an unreported one is 0 beside a reported one), `serverToolRequests.webSearch` /
 * `webFetch` as `server_tool_use` (only the reported members: the API itself sent `web_search_requests` alone
 * before it had web fetch), an Anthropic `serviceTier` as `service_tier`, `reasoningOutputTokens` as
 * `output_tokens_details.thinking_tokens`. An absent detail writes nothing.
 */
export function encodeAnthropicWireUsage(usage: UsageV3 | undefined): AnthropicEgressUsage {
  const cacheRead = usage?.cacheReadInputTokens;
  const cacheWrite = usage?.cacheWriteInputTokens;
  const input = usage?.inputTokens;
  const byTtl = usage?.cacheWriteInputTokensByTtl;
  const tools = usage?.serverToolRequests;
  const tier = usage?.serviceTier;
  const reasoning = usage?.reasoningOutputTokens;
  return {
    input_tokens: input === undefined ? 0 : Math.max(0, input - (cacheRead ?? 0) - (cacheWrite ?? 0)),
    output_tokens: usage?.outputTokens ?? 0,
    cache_creation_input_tokens: cacheWrite ?? null,
    cache_read_input_tokens: cacheRead ?? null,
    ...(byTtl === undefined || (byTtl.fiveMinutes === undefined && byTtl.oneHour === undefined)
      ? {}
      : { cache_creation: { ephemeral_5m_input_tokens: byTtl.fiveMinutes ?? 0, ephemeral_1h_input_tokens: byTtl.oneHour ?? 0 } }),
    ...(tools === undefined || (tools.webSearch === undefined && tools.webFetch === undefined)
      ? {}
      : {
          server_tool_use: {
            ...(tools.webSearch === undefined ? {} : { web_search_requests: tools.webSearch }),
            ...(tools.webFetch === undefined ? {} : { web_fetch_requests: tools.webFetch }),
          },
        }),
    ...(tier !== undefined && ANTHROPIC_SERVICE_TIERS.has(tier) ? { service_tier: tier } : {}),
    ...(reasoning === undefined ? {} : { output_tokens_details: { thinking_tokens: reasoning } }),
  };
}
