import { CodecErrorV1, CONTRACT_BOUNDS_V3, ProviderTransportFailureV1, providerDiagnosticV3Schema, type ProviderDiagnosticV3 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { diagnosticForError, reportDiagnostic } from './diagnostic-for-error.js';
import { ProtocolViolationError } from './protocol-violation-error.js';
import { terminalForError } from './terminal-for-error.js';

describe('diagnosticForError', () => {
  it('names the stable reason, the rule and the path, within the schema', () => {
    const cases: [unknown, ProviderDiagnosticV3][] = [
      [new ProtocolViolationError('invalid-event', 'openai-chat choices.0.delta.content not a string'), { code: 'protocol-violation', rule: 'invalid-event: openai-chat choices.0.delta.content not a string' }],
      [new CodecErrorV1('malformed-json', 'the body is not JSON', { path: 'choices.0' }), { code: 'protocol-violation', rule: 'malformed-json: the body is not JSON', location: 'choices.0' }],
      [new ProviderTransportFailureV1('after-send', 'connection-lost'), { code: 'truncated-stream', rule: 'transport after-send: connection-lost' }],
    ];
    for (const [error, expected] of cases) {
      const diagnostic = diagnosticForError(error, expected.code);
      expect(diagnostic).toEqual(expected);
      expect(providerDiagnosticV3Schema.safeParse(diagnostic).success).toBe(true);
    }
    expect(diagnosticForError(new TypeError('a defect'), 'protocol-violation')).toBeUndefined();
  });

  it('clips an overlong message to the bound instead of losing the diagnostic', () => {
    const diagnostic = diagnosticForError(new ProtocolViolationError('invalid-event', 'x'.repeat(5_000)), 'protocol-violation');
    expect(diagnostic?.rule.length).toBe(CONTRACT_BOUNDS_V3.diagnosticTextMaxLength);
    expect(providerDiagnosticV3Schema.safeParse(diagnostic).success).toBe(true);
  });

  it('reports through terminalForError for each failed terminal it makes, and survives a throwing callback', () => {
    const seen: ProviderDiagnosticV3[] = [];
    const report = (diagnostic: ProviderDiagnosticV3) => seen.push(diagnostic);
    terminalForError(new ProtocolViolationError('usage-decreased', 'cumulative usage field inputTokens decreased'), { reportDiagnostic: report });
    terminalForError(new ProviderTransportFailureV1('after-send', 'timeout'), { reportDiagnostic: report });
    terminalForError(new TypeError('a defect'), { reportDiagnostic: report });
    expect(seen.map((diagnostic) => diagnostic.code)).toEqual(['protocol-violation', 'timeout']);
    expect(() =>
      reportDiagnostic(() => {
        throw new Error('host bug');
      }, seen[0]),
    ).not.toThrow();
  });
});
