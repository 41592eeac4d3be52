import { createHmac } from 'node:crypto';
import type { ProviderSimulator } from '../start-provider-simulator.js';

/** An HS256 JWT as Kling expects it. */
export function klingJwt(accessKey: string, secretKey: string, claims: { exp: number; nbf: number }, signWith = secretKey): string {
  const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
  const payload = Buffer.from(JSON.stringify({ iss: accessKey, ...claims })).toString('base64url');
  const signature = createHmac('sha256', signWith).update(`${header}.${payload}`).digest('base64url');
  return `${header}.${payload}.${signature}`;
}

/** A valid Kling authorization header for `simulator`. */
export function klingAuthorization(simulator: ProviderSimulator): string {
  const now = Math.floor(Date.now() / 1000);
  return `Bearer ${klingJwt(simulator.credentials.klingAccessKey, simulator.credentials.klingSecretKey, { exp: now + 1800, nbf: now - 5 })}`;
}

/** A JSON request to the simulator. */
export async function send(
  simulator: ProviderSimulator,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; headers: Headers; json: any; text: string }> {
  const response = await fetch(`${simulator.url}${path}`, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json, text };
}

