import { describe, expect, it } from 'vitest';
import { CONTRACT_BOUNDS_V1 } from './contract-bounds-v1.js';

describe('CONTRACT_BOUNDS_V1', () => {
  it('is frozen: a host cannot move a bound for everyone', () => {
    expect(Object.isFrozen(CONTRACT_BOUNDS_V1)).toBe(true);
  });

  it('keeps the V1 values (a change is a new version, not an edit)', () => {
    expect(CONTRACT_BOUNDS_V1).toStrictEqual({
      toolCallIdMaxLength: 512,
      toolNameMaxLength: 256,
      declaredToolNameMaxLength: 128,
      toolDescriptionMaxLength: 16_384,
      streamIndexMax: 1_000_000,
      providerIdentifierMaxLength: 256,
      idempotencyKeyMaxLength: 128,
      cacheTtlSecondsMax: 86_400,
      documentTitleMaxLength: 1024,
      mediaUrlMaxLength: 32_768_000,
      mediaTypeMinLength: 3,
      mediaTypeMaxLength: 255,
      promptCacheKeyMaxLength: 256,
      responseFormatNameMaxLength: 64,
      stopSequencesMaxCount: 16,
      retryAfterMsMax: 86_400_000,
      providerCodeMaxLength: 64,
      temperatureMin: 0,
      temperatureMax: 2,
      topPMin: 0,
      topPMax: 1,
      penaltyMin: -2,
      penaltyMax: 2,
    });
  });
});
