import { z } from 'zod';
import {
  chatResultV1Schema,
  embeddingResultV1Schema,
  imageResultV1Schema,
  rerankResultV1Schema,
} from '../v1/task-result-v1.js';

/** The answer to a token-count task: the provider's own count of the input. */
export const tokenCountResultV3Schema = z.strictObject({
  kind: z.literal('token-count'),
  /** Input tokens the request would use, as the provider counted them. */
  inputTokens: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
});
export type TokenCountResultV3 = z.infer<typeof tokenCountResultV3Schema>;

/** The result of a sync or stream execution, V3 revision; its `kind` equals the task kind. */
export const taskResultV3Schema = z.discriminatedUnion('kind', [
  chatResultV1Schema,
  embeddingResultV1Schema,
  imageResultV1Schema,
  rerankResultV1Schema,
  tokenCountResultV3Schema,
]);
export type TaskResultV3 = z.infer<typeof taskResultV3Schema>;
