import {
  GEN_AI_OPERATION_NAME_VALUE_CHAT,
  GEN_AI_OPERATION_NAME_VALUE_EMBEDDINGS,
  GEN_AI_OPERATION_NAME_VALUE_GENERATE_CONTENT,
} from './gen-ai-conventions.js';
import type { TaskKindV3 } from '@tokenforge/model-protocol';

/**
 * `gen_ai.operation.name` of a task kind: the convention's well-known values where one fits (`chat`,
 * `embeddings`, `generate_content` for media), and `rerank` and `count_tokens` (token counting), which the
 * convention does not name yet.
 */
export function genAiOperationName(kind: TaskKindV3): string {
  switch (kind) {
    case 'chat':
      return GEN_AI_OPERATION_NAME_VALUE_CHAT;
    case 'embedding':
      return GEN_AI_OPERATION_NAME_VALUE_EMBEDDINGS;
    case 'rerank':
      return 'rerank';
    case 'token-count':
      return 'count_tokens';
    default:
      return GEN_AI_OPERATION_NAME_VALUE_GENERATE_CONTENT;
  }
}
