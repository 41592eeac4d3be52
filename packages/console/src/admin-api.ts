let csrfToken = '';

/** An admin API refusal: its stable `code` and HTTP status. */
export class AdminApiError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Reads this session's CSRF token; a lost session sends the browser back to the sign-in form. */
export async function startSession(): Promise<void> {
  const response = await fetch('/console/session', { credentials: 'same-origin' });
  if (response.status === 401) {
    location.assign('/console/');
    throw new AdminApiError('console-session-required', 401, 'The session ended.');
  }
  csrfToken = ((await response.json()) as { csrfToken: string }).csrfToken;
}

/** Calls `/admin/v1` with the session cookie, and the CSRF token on every change. */
export async function adminApi<T>(method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`/admin/v1${path}`, { method, headers, credentials: 'same-origin', ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const answer = (await response.json().catch(() => ({}))) as { error?: { code?: string; message?: string; fields?: string[] } };
  if (!response.ok) {
    if (response.status === 401) location.assign('/console/');
    const fields = answer.error?.fields?.length ? ` (${answer.error.fields.join(', ')})` : '';
    throw new AdminApiError(answer.error?.code ?? 'http-error', response.status, `${answer.error?.message ?? `HTTP ${response.status}`}${fields}`);
  }
  return answer as T;
}

/** Ends the session and returns to the sign-in form. */
export async function signOut(): Promise<void> {
  await fetch('/console/sign-out', { method: 'POST', headers: { 'x-csrf-token': csrfToken }, credentials: 'same-origin' });
  location.assign('/console/');
}
