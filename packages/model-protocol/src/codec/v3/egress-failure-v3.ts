import type { NormalizedProviderFailureV3 } from '../../outcome/v3/adapter-terminal-outcome-v3.js';
import type { CodecErrorCodeV1 } from '../v1/codec-error-v1.js';

/**
 * A failure to report in a dialect's own error envelope (contract revision V3): an ingress refusal may name the
 * client field it refused, so a dialect with a field slot (OpenAI's `param`) can tell the client which one.
 * Every `EgressFailureV1` is an `EgressFailureV3`.
 */
export type EgressFailureV3 =
  | { readonly source: 'provider'; readonly failure: NormalizedProviderFailureV3 }
  | { readonly source: 'engine'; readonly code: string }
  | {
      readonly source: 'ingress';
      readonly code: CodecErrorCodeV1;
      /**
       * The refused field as a path in the client's own request (`n`, `messages.3.content.0`), from the ingress
       * codec's `CodecErrorV1.path`. The client's own field names only, never a value.
       */
      readonly param?: string;
    };
