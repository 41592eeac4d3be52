import type { NormalizedProviderFailureV3, ProviderReportedCostV3, UsageV3 } from '@tokenforge/model-protocol';

/**
 * The normalized frame vocabulary every CLI mapping produces (the driver seed's vocabulary): a mapping turns one
 * wire document into these, and {@link foldCliFrames} turns these into normalized events and one terminal.
 * Neither half knows the other's vocabulary.
 */
export type CliFrame =
  /** A new assistant segment began (a new message or content block); the next content opens a new block. */
  | { readonly kind: 'segment' }
  /** Streamed answer text. */
  | { readonly kind: 'text'; readonly text: string }
  /** Streamed reasoning text. */
  | { readonly kind: 'reasoning'; readonly text: string }
  /** The CLI announced a call of one of its OWN tools (hosted activity: never a client tool call). */
  | { readonly kind: 'hosted-tool-call'; readonly id: string; readonly name: string }
  /** The CLI reported the result of one of its own tool calls. */
  | { readonly kind: 'hosted-tool-result'; readonly id: string; readonly isError: boolean }
  /** Usage as the CLI reported it (the last one stands). */
  | { readonly kind: 'usage'; readonly usage: UsageV3 }
  /**
   * The CLI's own verdict that something failed. Recorded, not thrown: only the verdict still standing when the
   * run settles fails it.
   */
  | { readonly kind: 'error'; readonly failure: NormalizedProviderFailureV3 }
  /** The run is over (the CLI's terminal frame). `failed` is the CLI's own failed verdict. */
  | { readonly kind: 'settle'; readonly failed: boolean; readonly cost?: ProviderReportedCostV3; readonly stopReason?: string };
