import { z } from 'zod';

/**
 * One media file the host prepared for a task (for example the source image of an image edit). The host
 * bounded it, measured it and computed its digest; the bytes are streamed, never buffered whole.
 */
export interface PreparedMediaItemV2 {
  /** The role of the file in the request, for example `image` or `mask`. */
  readonly role: 'image' | 'mask';
  /** File name sent to the provider (no path). */
  readonly fileName: string;
  /** IANA media type, for example `image/png`. */
  readonly mediaType: string;
  /** Exact size in bytes. */
  readonly sizeBytes: number;
  /** Lower-case hex SHA-256 of the bytes. */
  readonly sha256: string;
  /** Opens the bytes; each call returns a fresh stream of exactly `sizeBytes` bytes. */
  open(): AsyncIterable<Uint8Array>;
}

/** Media prepared for one execution. */
export interface PreparedMediaExecutionInputV2 {
  /** The files, in the order the provider should receive them. */
  readonly items: readonly PreparedMediaItemV2[];
  /** Sum of `sizeBytes`; the engine checks it against the target's limit. */
  readonly totalBytes: number;
}

const preparedMediaItemV2Schema = z.object({
  role: z.enum(['image', 'mask']),
  fileName: z.string().min(1).max(255).regex(/^[^/\\\u0000-\u001f]+$/),
  mediaType: z.string().regex(/^[a-z]+\/[A-Za-z0-9.+-]+$/),
  sizeBytes: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  open: z.custom<() => AsyncIterable<Uint8Array>>((value) => typeof value === 'function'),
});

/** Runtime schema of {@link PreparedMediaExecutionInputV2}; checks that sizes add up. */
export const preparedMediaExecutionInputV2Schema = z
  .object({
    items: z.array(preparedMediaItemV2Schema).min(1).max(16),
    totalBytes: z.number().int().nonnegative(),
  })
  .refine((input) => input.items.reduce((sum, item) => sum + item.sizeBytes, 0) === input.totalBytes, {
    message: 'totalBytes is not the sum of the item sizes',
  });
