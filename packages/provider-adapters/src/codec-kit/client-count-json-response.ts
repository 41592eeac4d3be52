/** A JSON answer of a client dialect's counting endpoint (status 200). */
export function clientCountJsonResponse(value: unknown): { readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: Uint8Array } {
  return { status: 200, headers: { 'content-type': 'application/json' }, body: new TextEncoder().encode(JSON.stringify(value)) };
}
