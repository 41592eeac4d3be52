import { lookup } from 'node:dns/promises';
import type { HttpTransportHostnameResolver } from '../http-transport-options.js';

/** Resolves with the operating system's resolver (hosts file included), every address, in its order. */
export const defaultHostnameResolver: HttpTransportHostnameResolver = async (hostname, { signal }) => {
  signal.throwIfAborted();
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => answer.address);
};
