import { createRequire } from 'node:module';

type Undici = typeof import('undici');
let undici: Undici | undefined;

/**
 * undici, loaded at its first use rather than with this package: it is a hundred-odd modules, and a host that
 * creates transports at start-up (a gateway with many targets) should not pay for them before its first request.
 */
export function loadUndici(): Undici {
  undici ??= createRequire(import.meta.url)('undici') as Undici;
  return undici;
}
