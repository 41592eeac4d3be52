import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createOpaqueStateSeal } from './opaque-state-seal.js';

const key = new TextEncoder().encode('a host key of at least thirty-two bytes');
const seal = createOpaqueStateSeal(key);

describe('createOpaqueStateSeal', () => {
  it('opens what it sealed to the same family and the same bytes, for any value', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), fc.constantFrom('anthropic-messages/v1', 'gemini-generate-content/v1' as const), (value, family) => {
        expect(seal.open(seal.seal(family, value))).toEqual({ family, value });
      }),
    );
  });

  it('writes standard padded base64, which a Gemini client may decode to bytes and encode again unchanged', () => {
    const wrapper = seal.seal('openai-responses/v1', 'gAAAAABo-encrypted==');
    expect(wrapper).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    expect(wrapper.length % 4).toBe(0);
    expect(btoa(atob(wrapper))).toBe(wrapper);
  });

  it('reads an altered wrapper, or one sealed under another key, as invalid', () => {
    const wrapper = seal.seal('anthropic-messages/v1', 'EqQBCkYIBxgCKkA-signature');
    const bytes = Uint8Array.from(atob(wrapper), (char) => char.charCodeAt(0));
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) ^ 1;
    expect(seal.open(btoa(String.fromCharCode(...bytes)))).toBe('invalid');
    const other = createOpaqueStateSeal(new TextEncoder().encode('another host key of thirty-two bytes'));
    expect(other.open(wrapper)).toBe('invalid');
    // The family is covered by the MAC: a wrapper renamed to another family does not open.
    const renamed = atob(wrapper).replace('anthropic-messages/v1', 'openai-responses/v123');
    expect(seal.open(btoa(renamed))).toBe('invalid');
  });

  it('reads a provider value as no wrapper at all', () => {
    for (const value of ['EqQBCkYIBxgCKkA', 'gAAAAABo', 'CiQBVKhc', 'skip_thought_signature_validator', '']) expect(seal.open(value)).toBeUndefined();
  });

  it('refuses a key shorter than 16 bytes', () => {
    expect(() => createOpaqueStateSeal(new Uint8Array(8))).toThrow(/16 bytes/);
  });
});
