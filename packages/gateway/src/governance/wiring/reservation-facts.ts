import type { TaskEnvelopeV4 } from '@tokenforge/model-protocol';
import type { ReservationTaskFactsV1 } from '../v1/estimate-reservation-v1.js';

/** What a decoded task tells about its size before it is sent: counts and ceilings, never content. */
export function reservationFactsOf(task: TaskEnvelopeV4, requestBytes: number): ReservationTaskFactsV1 {
  let inputImages = 0;
  let inputDocuments = 0;
  switch (task.kind) {
    case 'chat':
    case 'token-count': {
      const messages = 'messages' in task ? task.messages : [];
      for (const message of messages) {
        for (const part of message.content) {
          if (part.type === 'image') inputImages += 1;
          else if (part.type === 'document') inputDocuments += 1;
        }
      }
      return {
        requestBytes,
        inputImages,
        inputDocuments,
        ...(task.kind === 'chat' && task.maxOutputTokens !== undefined ? { maxOutputTokens: task.maxOutputTokens } : {}),
        ...(task.kind === 'token-count' ? { maxOutputTokens: 0 } : {}),
      };
    }
    case 'image-generation':
    case 'image-edit':
      return { requestBytes, inputImages, inputDocuments, maxOutputTokens: 0, requestedImages: task.count ?? 1 };
    case 'video-generation':
      return { requestBytes, inputImages, inputDocuments, maxOutputTokens: 0, requestedVideoSeconds: Math.ceil(task.durationSeconds ?? 10) };
    default:
      // Embeddings and rerank produce no output tokens.
      return { requestBytes, inputImages, inputDocuments, maxOutputTokens: 0 };
  }
}
