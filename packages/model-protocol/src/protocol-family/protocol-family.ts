import { z } from 'zod';

/**
 * A wire dialect with its major version, `<name>/v<major>`, for example `openai-chat/v1`.
 * It names a protocol, not a vendor: many providers speak `openai-chat/v1`.
 */
export type ProtocolFamily = `${string}/v${number}`;

/** Lower-case kebab name, a slash, `v` and a major version without leading zeros. At most 64 characters. */
export const PROTOCOL_FAMILY_PATTERN = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*\/v[1-9][0-9]{0,3}$/;

/** Runtime schema of {@link ProtocolFamily}. */
export const protocolFamilySchema = z
  .string()
  .max(64)
  .regex(PROTOCOL_FAMILY_PATTERN) as unknown as z.ZodType<ProtocolFamily>;

/** True when `value` is a well-formed protocol family id. Never throws. */
export function isProtocolFamily(value: unknown): value is ProtocolFamily {
  return typeof value === 'string' && value.length <= 64 && PROTOCOL_FAMILY_PATTERN.test(value);
}
