import { describe, expect, it } from 'vitest';
import { isHttpsMediaUrl } from './https-media-url.js';

describe('isHttpsMediaUrl', () => {
  it('accepts an https URL', () => {
    expect(isHttpsMediaUrl('https://cdn.example.com/video.mp4?sig=abc')).toBe(true);
  });

  it.each([
    ['http', 'http://cdn.example.com/video.mp4'],
    ['user information', 'https://user:secret@cdn.example.com/video.mp4'],
    ['user name only', 'https://user@cdn.example.com/video.mp4'],
    ['not a URL', 'not a url'],
    ['a data URL', 'data:video/mp4;base64,AAAA'],
    ['longer than 8192 characters', `https://cdn.example.com/${'a'.repeat(8192)}`],
  ])('refuses %s', (_label, value) => {
    expect(isHttpsMediaUrl(value)).toBe(false);
  });
});
