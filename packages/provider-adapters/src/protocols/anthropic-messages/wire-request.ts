/**
 * TypeScript shapes of the Messages request body this family writes (provider requests) and reads (client
 * requests through ingress). Only the fields the family understands; see the fact sheet §3.2 to §3.4.
 */

/** A prompt-caching breakpoint. `ttl` absent means the provider default (5 minutes). */
export interface AnthropicCacheControl {
  readonly type: 'ephemeral';
  readonly ttl?: '5m' | '1h';
}

/** Where image or document bytes come from. */
export type AnthropicMediaSource =
  | { readonly type: 'base64'; readonly media_type: string; readonly data: string }
  | { readonly type: 'url'; readonly url: string }
  | { readonly type: 'text'; readonly media_type: 'text/plain'; readonly data: string };

export interface AnthropicTextBlockParam {
  readonly type: 'text';
  readonly text: string;
  readonly cache_control?: AnthropicCacheControl;
}

export interface AnthropicImageBlockParam {
  readonly type: 'image';
  readonly source: AnthropicMediaSource;
  readonly cache_control?: AnthropicCacheControl;
}

export interface AnthropicDocumentBlockParam {
  readonly type: 'document';
  readonly source: AnthropicMediaSource;
  readonly title?: string;
  readonly cache_control?: AnthropicCacheControl;
}

export interface AnthropicToolUseBlockParam {
  readonly type: 'tool_use';
  readonly id: string;
  readonly name: string;
  readonly input: Record<string, unknown>;
  /** Prompt-caching breakpoint after this block. */
  readonly cache_control?: AnthropicCacheControl;
}

export interface AnthropicToolResultBlockParam {
  readonly type: 'tool_result';
  readonly tool_use_id: string;
  readonly content?: readonly (AnthropicTextBlockParam | AnthropicImageBlockParam)[];
  readonly is_error?: boolean;
  /** Prompt-caching breakpoint after this block. */
  readonly cache_control?: AnthropicCacheControl;
}

export interface AnthropicThinkingBlockParam {
  readonly type: 'thinking';
  readonly thinking: string;
  readonly signature: string;
}

export interface AnthropicRedactedThinkingBlockParam {
  readonly type: 'redacted_thinking';
  readonly data: string;
}

/**
 * A compaction block replayed from an earlier answer (compaction beta): `content` is the summary exactly as the
 * API returned it. https://platform.claude.com/docs/en/build-with-claude/compaction
 */
export interface AnthropicCompactionBlockParam {
  readonly type: 'compaction';
  readonly content: string;
  /** `encrypted_content`, `signature`, `tool_changes` as the API returned them, when it did. */
  readonly [verbatim: string]: unknown;
  readonly cache_control?: AnthropicCacheControl;
}

/** Any block of a request message. */
export type AnthropicContentBlockParam =
  | AnthropicTextBlockParam
  | AnthropicImageBlockParam
  | AnthropicDocumentBlockParam
  | AnthropicToolUseBlockParam
  | AnthropicToolResultBlockParam
  | AnthropicThinkingBlockParam
  | AnthropicRedactedThinkingBlockParam
  | AnthropicCompactionBlockParam;

/** One turn. The API wants `user` and `assistant` turns to alternate. */
export interface AnthropicMessageParam {
  readonly role: 'user' | 'assistant';
  readonly content: AnthropicContentBlockParam[];
}

/** A client tool definition. */
export interface AnthropicToolParam {
  readonly name: string;
  readonly description?: string;
  readonly input_schema: Record<string, unknown>;
  readonly strict?: boolean;
  readonly cache_control?: AnthropicCacheControl;
  /** Load the definition only through tool search. */
  readonly defer_loading?: boolean;
  /** Stream the call's input without buffering it for validation. */
  readonly eager_input_streaming?: boolean;
}

/** The web search server tool (run by Anthropic). */
export interface AnthropicWebSearchToolParam {
  readonly type: 'web_search_20250305';
  readonly name: 'web_search';
  /** Most searches in one response. */
  readonly max_uses?: number;
  /** Search only these domains. */
  readonly allowed_domains?: string[];
  /** Never search these domains. */
  readonly blocked_domains?: string[];
}

export type AnthropicToolChoiceParam =
  | { readonly type: 'auto'; readonly disable_parallel_tool_use?: boolean }
  | { readonly type: 'any'; readonly disable_parallel_tool_use?: boolean }
  | { readonly type: 'none' }
  | { readonly type: 'tool'; readonly name: string; readonly disable_parallel_tool_use?: boolean };

export type AnthropicThinkingParam =
  | { readonly type: 'enabled'; readonly budget_tokens: number }
  /** The model decides how much to think (at `output_config.effort`); `display` says how thinking is shown. */
  | { readonly type: 'adaptive'; readonly display?: 'summarized' | 'omitted' | 'updates' };

/** The wire effort levels of `output_config.effort`. */
export type AnthropicWireEffort = 'low' | 'medium' | 'high' | 'xhigh' | 'max';

/** One context-management edit. */
export type AnthropicContextEdit =
  | { readonly type: 'clear_thinking_20251015'; readonly keep?: 'all' | { readonly type: 'thinking_turns'; readonly value: number } }
  | {
      readonly type: 'clear_tool_uses_20250919';
      readonly trigger?: { readonly type: 'input_tokens'; readonly value: number };
      readonly keep?: { readonly type: 'tool_uses'; readonly value: number };
      readonly clear_at_least?: { readonly type: 'input_tokens'; readonly value: number };
      readonly exclude_tools?: string[];
      readonly clear_tool_inputs?: boolean;
    }
  /** Server-side compaction (beta `compact-2026-01-12`), https://platform.claude.com/docs/en/build-with-claude/compaction. */
  | {
      readonly type: 'compact_20260112';
      readonly trigger?: { readonly type: 'input_tokens'; readonly value: number };
      readonly pause_after_compaction?: boolean;
      readonly instructions?: string;
    };

/** The request body of `POST /v1/messages`. */
export interface AnthropicMessagesRequestBody {
  /** The provider's model name (the target's `providerModel`). */
  readonly model: string;
  /** Output token limit, thinking included; required by the API. */
  readonly max_tokens: number;
  /** The alternating turns. */
  readonly messages: AnthropicMessageParam[];
  /** System instructions as text blocks (top level only). */
  readonly system?: AnthropicTextBlockParam[];
  /** Client tool definitions and server tools. */
  readonly tools?: (AnthropicToolParam | AnthropicWebSearchToolParam)[];
  /** How the model may use the tools; sent only with tools. */
  readonly tool_choice?: AnthropicToolChoiceParam;
  /** Extended thinking with its token budget (below `max_tokens`), or adaptive thinking. */
  readonly thinking?: AnthropicThinkingParam;
  /** Sampling temperature, 0 to 1. */
  readonly temperature?: number;
  /** Nucleus sampling mass. */
  readonly top_p?: number;
  /** Top-k sampling. */
  readonly top_k?: number;
  /** Sequences that stop generation. */
  readonly stop_sequences?: string[];
  /** Structured output (the JSON schema the answer text must satisfy) and the effort. */
  readonly output_config?: {
    readonly format?: { readonly type: 'json_schema'; readonly schema: Record<string, unknown> };
    /** How much effort the model spends (thinking and answer). */
    readonly effort?: AnthropicWireEffort;
  };
  /** The end user the request is made for. */
  readonly metadata?: { readonly user_id: string };
  /** Server-side pruning of the conversation (beta `context-management-2025-06-27`). */
  readonly context_management?: { readonly edits: AnthropicContextEdit[] };
  /** Present (true) only for streaming requests. */
  readonly stream?: true;
}
