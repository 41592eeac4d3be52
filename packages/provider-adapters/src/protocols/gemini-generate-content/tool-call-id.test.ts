import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deriveResponseToolCallId, isDerivedToolCallId } from './tool-call-id.js';

describe('derived tool call ids', () => {
  it('never show the provider response id, yet differ between responses', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9_.:-]{12,40}$/), fc.nat(20), (responseId, ordinal) => {
        const id = deriveResponseToolCallId(responseId, ordinal);
        expect(id).not.toContain(responseId);
        expect(id).toMatch(/^gemini-fc-[0-9a-f]{8}-\d+$/);
        expect(isDerivedToolCallId(id)).toBe(true);
      }),
    );
    expect(deriveResponseToolCallId('response-a', 0)).not.toBe(deriveResponseToolCallId('response-b', 0));
    expect(deriveResponseToolCallId('response-a', 0)).toBe(deriveResponseToolCallId('response-a', 0));
  });

  it('falls back to the ordinal without a usable response id', () => {
    expect(deriveResponseToolCallId(undefined, 2)).toBe('gemini-fc-2');
    expect(deriveResponseToolCallId('has spaces', 1)).toBe('gemini-fc-1');
  });
});
