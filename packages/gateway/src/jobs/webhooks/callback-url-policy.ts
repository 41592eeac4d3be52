import { findAddressRefusal, findHostnameRefusal, type AddressRules, type RestrictedAddressCategory } from '@tokenforge/http-transport';
import { isIP } from 'node:net';

/** What the operator allows callback URLs to reach. */
export interface CallbackUrlPolicy {
  /** Allow `http://` to loopback and `https://` to loopback (local receivers, tests). Default: public HTTPS only. */
  readonly allowLoopback: boolean;
}

/** Why a callback URL is refused at create (stable codes for the `invalid-request` issue). */
export type CallbackUrlRefusal = 'not-a-url' | 'scheme-not-allowed' | 'credentials-in-url' | 'address-not-allowed';

const MAX_CALLBACK_URL_LENGTH = 2048;

/** The transport's address rules for a callback URL (the same policy as upstreams: no private, metadata or link-local). */
export function callbackAddressRules(url: URL, policy: CallbackUrlPolicy): AddressRules {
  const allowed: RestrictedAddressCategory[] = policy.allowLoopback ? ['loopback'] : [];
  return { allowedCategories: new Set(allowed), plainHttp: url.protocol === 'http:' };
}

const unbracket = (hostname: string): string => (hostname.startsWith('[') ? hostname.slice(1, -1) : hostname);

/**
 * Checks a callback URL at create, before anything is sent: `https:` (or `http:` only with loopback allowed and
 * a loopback host), no userinfo, and a host that is not a refused name or address. A host name is checked again
 * at every delivery, on the addresses it then resolves to (see deliver-webhook.ts).
 */
export function checkCallbackUrl(value: string, policy: CallbackUrlPolicy): { readonly url: URL } | { readonly refusal: CallbackUrlRefusal } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { refusal: 'not-a-url' };
  }
  if (value.length > MAX_CALLBACK_URL_LENGTH) return { refusal: 'not-a-url' };
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowLoopback)) return { refusal: 'scheme-not-allowed' };
  if (url.username !== '' || url.password !== '') return { refusal: 'credentials-in-url' };
  const rules = callbackAddressRules(url, policy);
  const host = unbracket(url.hostname);
  if (findHostnameRefusal(host, rules) !== undefined) return { refusal: 'address-not-allowed' };
  if (isIP(host) !== 0 && findAddressRefusal([host], rules) !== undefined) return { refusal: 'address-not-allowed' };
  if (url.protocol === 'http:' && isIP(host) === 0 && host !== 'localhost') return { refusal: 'scheme-not-allowed' };
  return { url };
}
