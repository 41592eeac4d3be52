import { describe, expect, it } from 'vitest';
import { formatBase64DataUrl, parseBase64DataUrl } from './data-url.js';

describe('parseBase64DataUrl', () => {
  it('reads the scheme in any case, the chat and responses families alike', () => {
    for (const scheme of ['data:', 'DATA:', 'Data:', 'dAtA:']) {
      expect(parseBase64DataUrl(`${scheme}image/PNG;base64,AAAA`)).toEqual({ mediaType: 'image/png', data: 'AAAA' });
    }
  });

  it('keeps parameters before ;base64 and refuses what is not a base64 data URL', () => {
    expect(parseBase64DataUrl('data:text/plain;charset=utf-8;base64,QQ==')).toEqual({ mediaType: 'text/plain', data: 'QQ==' });
    expect(parseBase64DataUrl('https://example.com/a.png')).toBeUndefined();
    expect(parseBase64DataUrl('data:text/plain,hello')).toBeUndefined();
    expect(parseBase64DataUrl('data:image/png;base64,')).toBeUndefined();
  });

  it('round-trips with formatBase64DataUrl', () => {
    expect(parseBase64DataUrl(formatBase64DataUrl('image/webp', 'UklG'))).toEqual({ mediaType: 'image/webp', data: 'UklG' });
  });
});
