import { REASONING_EFFORTS_V3 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { resolveReasoningEffortV3 } from './reasoning-effort.js';

const V2_SCALE = ['minimal', 'low', 'medium', 'high'] as const;

describe('resolveReasoningEffortV3', () => {
  it('maps onto the V2 scale when the target declares no levels', () => {
    expect(resolveReasoningEffortV3('none', undefined, REASONING_EFFORTS_V3)).toBe('minimal');
    expect(resolveReasoningEffortV3('medium', undefined, REASONING_EFFORTS_V3)).toBe('medium');
    expect(resolveReasoningEffortV3('xhigh', undefined, REASONING_EFFORTS_V3)).toBe('high');
    expect(resolveReasoningEffortV3('max', undefined, V2_SCALE)).toBe('high');
  });

  it('keeps a declared level and maps the others to the nearest declared one', () => {
    const declared = ['none', 'low', 'medium', 'high', 'xhigh'] as const;
    expect(resolveReasoningEffortV3('none', declared, REASONING_EFFORTS_V3)).toBe('none');
    expect(resolveReasoningEffortV3('minimal', declared, REASONING_EFFORTS_V3)).toBe('none');
    expect(resolveReasoningEffortV3('max', declared, REASONING_EFFORTS_V3)).toBe('xhigh');
  });

  it('ignores declared levels the encoding cannot carry, falling back to the expressible ones', () => {
    expect(resolveReasoningEffortV3('max', ['low', 'high', 'max'], V2_SCALE)).toBe('high');
    expect(resolveReasoningEffortV3('none', ['xhigh', 'max'], V2_SCALE)).toBe('minimal');
  });
});
