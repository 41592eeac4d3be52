import { CodecErrorV1 } from '@tokenforge/model-protocol';

/** The exhaustiveness check at the end of a `switch` over a union: unreachable when the types hold. */
export function assertNever(value: never, what: string): never {
  throw new CodecErrorV1('invalid-request', `unknown ${what}`, { cause: value });
}
