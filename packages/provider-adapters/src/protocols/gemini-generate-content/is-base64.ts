const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Whether text is non-empty standard base64 (RFC 4648 §4; padding optional, never a lone trailing character). */
export function isBase64(text: string): boolean {
  return text.length > 0 && text.length % 4 !== 1 && BASE64.test(text);
}
