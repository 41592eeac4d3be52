/** Whether a media URL is `https:` without user information (what the job contract accepts), at most 8192 chars. */
export function isHttpsMediaUrl(value: string): boolean {
  if (value.length > 8192) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return url.protocol === 'https:' && url.username === '' && url.password === '';
}
