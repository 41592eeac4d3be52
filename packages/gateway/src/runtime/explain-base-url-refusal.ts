import { classifyAddress } from '@tokenforge/http-transport';
import type { GatewayTargetV1 } from '../catalogue/gateway-catalogue-v1.js';

/**
 * Why the transport will refuse a target's `baseUrl`, in catalogue terms and with what to write instead, or
 * `undefined` when the address is one the target's `network` settings reach. The transport still decides; this
 * only turns its refusal into an operator message.
 */
export function explainBaseUrlRefusal(target: GatewayTargetV1): string | undefined {
  if (target.baseUrl === undefined || !URL.canParse(target.baseUrl)) return undefined;
  const url = new URL(target.baseUrl);
  const hostname = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const localhost = hostname === 'localhost' || hostname.endsWith('.localhost');
  const category = localhost ? 'loopback' : classifyAddress(hostname);
  const allowLoopback = target.network?.allowLoopback === true;
  const allowPrivate = target.network?.allowPrivate === true;
  if (category === 'loopback' && !allowLoopback) {
    return `baseUrl ${url.origin} is on this machine (loopback), which is refused unless the target says so: add network: { allowLoopback: true } to this target (plain http is then allowed too)`;
  }
  if (category === 'private' && !allowPrivate) {
    return `baseUrl ${url.origin} is a private network address, which is refused unless the target says so: add network: { allowPrivate: true } to this target`;
  }
  if (url.protocol === 'http:' && category !== 'loopback') {
    return `baseUrl ${url.origin} uses plain http, which is allowed only to this machine (with network.allowLoopback): use https`;
  }
  if (category !== undefined && category !== 'public' && category !== 'loopback' && category !== 'private') {
    return `baseUrl ${url.origin} is a ${category} address, which the gateway never calls: use the provider's public https address`;
  }
  return undefined;
}
