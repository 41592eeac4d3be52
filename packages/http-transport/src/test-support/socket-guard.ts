/**
 * Tests must never send a packet beyond loopback. `withSocketGuard` wraps `connect` of `node:net` and
 * `node:tls` (installed with `vi.mock` in a test file): loopback passes, the stand-in public address is
 * rerouted to 127.0.0.1, and any other address is recorded and refused before a socket exists. That lets a
 * test prove "the transport tried to connect to exactly this pinned address" without any traffic.
 */

/** A public address that tests resolve names to; the guard reroutes it to 127.0.0.1. */
export const STAND_IN_PUBLIC_ADDRESS = '93.184.216.34';

/** Hosts the transport tried to connect to (after rerouting decisions), in order. */
export const connectAttempts: string[] = [];

const LOOPBACK = new Set(['127.0.0.1', '::1']);

type ConnectFunction = (...args: unknown[]) => unknown;

export function withSocketGuard<T extends { connect: unknown }>(module: T): T {
  const original = module.connect as ConnectFunction;
  const guarded = (...args: unknown[]): unknown => {
    const [first] = args;
    if (typeof first !== 'object' || first === null) throw new Error('socket guard: only option-object connects are allowed');
    const options = first as { host?: string };
    const host = options.host ?? '';
    connectAttempts.push(host);
    if (host === STAND_IN_PUBLIC_ADDRESS) return original({ ...options, host: '127.0.0.1' }, ...args.slice(1));
    if (!LOOPBACK.has(host)) throw new Error('socket guard: refused a non-loopback connect');
    return original(...args);
  };
  return { ...module, connect: guarded, default: { ...(module as { default?: object }).default, connect: guarded } };
}
