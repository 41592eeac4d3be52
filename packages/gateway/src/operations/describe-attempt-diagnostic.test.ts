import { expect, it } from 'vitest';
import { ATTEMPT_DIAGNOSTIC_MAX_LENGTH, describeAttemptDiagnostic } from './describe-attempt-diagnostic.js';

const attempt = { target: 'm#0', provider: 'p', family: 'openai-chat/v1', outcome: 'protocol-violation' };

it('says nothing for an attempt with no diagnostic facts', () => {
  expect(describeAttemptDiagnostic({ ...attempt, outcome: 'ok' })).toBeUndefined();
});

it('joins the codec diagnostics, the transport failure and the requested wait', () => {
  expect(
    describeAttemptDiagnostic({
      ...attempt,
      diagnostics: [
        { code: 'protocol-violation', rule: 'usage snapshot decreased', location: 'sse line 42', expected: 'a count at least the last one', providerRequestId: 'req_1' },
        { code: 'protocol-violation', rule: 'unknown finish reason' },
      ],
      transport: { stage: 'after-send', reason: 'timeout' },
      retryAfterMs: 1500,
    }),
  ).toBe(
    'protocol-violation: usage snapshot decreased, at sse line 42, expected a count at least the last one, provider request req_1; protocol-violation: unknown finish reason; transport timeout (after-send); retry after 1500 ms',
  );
});

it('cuts a long diagnostic at the bound', () => {
  const many = Array.from({ length: 40 }, () => ({ code: 'protocol-violation' as const, rule: 'r'.repeat(60) }));
  const text = describeAttemptDiagnostic({ ...attempt, diagnostics: many });
  expect(text).toHaveLength(ATTEMPT_DIAGNOSTIC_MAX_LENGTH);
  expect(text?.endsWith('…')).toBe(true);
});
