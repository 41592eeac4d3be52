import { createServer } from 'node:net';

/** A TCP port free on 127.0.0.1 at the time of the call (the OS picks it; a server started right after takes it). */
export async function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Runs `start` on a free loopback port and answers that port. The port may be taken by another process between the
 * check and the start: then another one is tried, three in all.
 */
export async function startOnFreeLoopbackPort(start: (port: number) => Promise<void>): Promise<number> {
  for (let attempt = 1; ; attempt += 1) {
    const port = await freeLoopbackPort();
    try {
      await start(port);
      return port;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}
