// What a job id must not hold, raw or percent-encoded, once an adapter places it in a path segment:
// a separator (`/`, `\`), a `%` (an escape an upstream may decode before routing), `?` or `#`, or be `.`/`..`.
const UNSAFE_CHARACTER = /[/\\%?#]/;

/**
 * Whether a provider job id can be one path segment of a job URL (`/tasks/{id}`) without any way to leave it,
 * whatever the upstream decodes or normalizes: the same rule model ids placed in paths follow. Ids a host got
 * from a provider never need these characters; ids from end users that do are refused before any adapter runs.
 */
export function isPathSafeProviderJobId(providerJobId: string): boolean {
  return providerJobId !== '.' && providerJobId !== '..' && !UNSAFE_CHARACTER.test(providerJobId);
}
