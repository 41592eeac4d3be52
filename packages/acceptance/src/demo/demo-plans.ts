import {
  anthropicStream,
  anthropicSync,
  cohereRerank,
  geminiStream,
  geminiSync,
  openAiChatStream,
  openAiChatSync,
  openAiEmbeddings,
  openAiImages,
  openAiResponsesStream,
  openAiResponsesSync,
  type DemoClients,
} from './demo-clients.js';
import { DEMO_JOBS_ROUTE } from './demo-jobs.js';

/** One call of a cell: a client asks the gateway for `model` and describes what it got back (throws otherwise). */
export type DemoCall = (clients: DemoClients, model: string) => Promise<string>;

/** What the demo runs for one row of the matrix. */
export interface DemoRowPlan {
  /** The row label: the family for a same-dialect row, `<client> client -> <family>` for a cross-dialect one. */
  readonly label: string;
  /** The public model of the embedded catalogue the client asks for. */
  readonly model: string;
  /** The family of the target that model routes to (what the row proves reachable). */
  readonly targetFamily: string;
  /** The gateway route the client calls, as the operator log names it (`POST /v1/messages`; jobs rows: `/v1/jobs`). */
  readonly route: string;
  readonly sync?: DemoCall;
  readonly stream?: DemoCall;
  /** An async family: create, poll with get, list and (when `cancel`) cancel, through the gateway's jobs API. */
  readonly jobs?: { readonly cancel: boolean };
}

/**
 * One row per family of the embedded catalogue, each called by the client of its own dialect. A family the gateway
 * serves but this table does not know shows up as a failed row, so a new family cannot be skipped silently.
 */
export const DEMO_FAMILY_PLANS: Readonly<Record<string, DemoRowPlan>> = {
  'openai-chat/v1': { label: 'openai-chat/v1', model: 'sim-openai-chat', route: 'POST /v1/chat/completions', targetFamily: 'openai-chat/v1', sync: openAiChatSync, stream: openAiChatStream },
  'openai-responses/v1': {
    label: 'openai-responses/v1',
    model: 'sim-openai-responses',
    route: 'POST /v1/responses',
    targetFamily: 'openai-responses/v1',
    sync: openAiResponsesSync,
    stream: openAiResponsesStream,
  },
  'anthropic-messages/v1': { label: 'anthropic-messages/v1', model: 'sim-anthropic', route: 'POST /v1/messages', targetFamily: 'anthropic-messages/v1', sync: anthropicSync, stream: anthropicStream },
  'gemini-generate-content/v1': {
    label: 'gemini-generate-content/v1',
    model: 'sim-gemini',
    route: 'POST /v1beta/models/{model}:',
    targetFamily: 'gemini-generate-content/v1',
    sync: geminiSync,
    stream: geminiStream,
  },
  'openai-embeddings/v1': { label: 'openai-embeddings/v1', model: 'sim-embeddings', route: 'POST /v1/embeddings', targetFamily: 'openai-embeddings/v1', sync: openAiEmbeddings },
  'openai-images/v1': { label: 'openai-images/v1', model: 'sim-images', route: 'POST /v1/images/generations', targetFamily: 'openai-images/v1', sync: openAiImages },
  'cohere-rerank/v1': { label: 'cohere-rerank/v1', model: 'sim-rerank', route: 'POST /v2/rerank', targetFamily: 'cohere-rerank/v1', sync: cohereRerank },
  'kling-video/v1': { label: 'kling-video/v1', model: 'sim-kling-video', route: DEMO_JOBS_ROUTE, targetFamily: 'kling-video/v1', jobs: { cancel: false } },
  'dashscope-tasks/v1': { label: 'dashscope-tasks/v1', model: 'sim-dashscope-video', route: DEMO_JOBS_ROUTE, targetFamily: 'dashscope-tasks/v1', jobs: { cancel: true } },
};

/** Clients of one dialect served by a target of another, through the ingress and egress codecs. */
export const DEMO_CROSS_DIALECT_PLANS: readonly DemoRowPlan[] = [
  { label: 'anthropic client -> openai-chat', model: 'sim-openai-chat', route: 'POST /v1/messages', targetFamily: 'openai-chat/v1', sync: anthropicSync, stream: anthropicStream },
  {
    label: 'responses client -> anthropic',
    model: 'sim-anthropic',
    route: 'POST /v1/responses',
    targetFamily: 'anthropic-messages/v1',
    sync: openAiResponsesSync,
    stream: openAiResponsesStream,
  },
  { label: 'gemini client -> openai-chat', model: 'sim-openai-chat', route: 'POST /v1beta/models/{model}:', targetFamily: 'openai-chat/v1', sync: geminiSync, stream: geminiStream },
];
