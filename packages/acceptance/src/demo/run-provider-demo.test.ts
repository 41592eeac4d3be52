import { describe, expect, it } from 'vitest';
import { DEMO_FAMILY_PLANS } from './demo-family-plans.js';
import { formatSupportMatrix } from './format-support-matrix.js';
import { DEMO_CELL_KEYS, runProviderDemo } from './run-provider-demo.js';

describe('runProviderDemo', () => {
  it('runs every family the engine lists and passes every declared cell, plus the cross-dialect stream', async () => {
    const lines: string[] = [];
    const report = await runProviderDemo({ log: (line) => lines.push(line) });
    expect(report.rows.map((row) => row.protocolFamily)).toEqual(report.engineFamilies);
    for (const row of report.rows) {
      expect(DEMO_CELL_KEYS.some((key) => row.cells[key].status === 'pass')).toBe(true);
      expect(DEMO_CELL_KEYS.every((key) => row.cells[key].status !== 'fail')).toBe(true);
    }
    expect(report.crossDialect).toMatchObject({ status: 'pass' });
    expect(report.crossDialect.clientBytes).toContain('event: message_start');
    expect(report.ok).toBe(true);
    expect(lines.some((line) => line.startsWith('simulator listening on http://127.0.0.1:'))).toBe(true);
    const matrix = formatSupportMatrix(report);
    for (const family of report.engineFamilies) expect(matrix).toContain(family);
  }, 60_000);

  it('reports failure (ok false) when a family the engine lists has no working plan', async () => {
    const family = 'openai-chat/v1';
    const plans = { ...DEMO_FAMILY_PLANS, [family]: { ...DEMO_FAMILY_PLANS[family], providerModel: 'error.500' } } as typeof DEMO_FAMILY_PLANS;
    const report = await runProviderDemo({ plans });
    const row = report.rows.find((candidate) => candidate.protocolFamily === family);
    expect(row?.cells.sync).toMatchObject({ status: 'fail', detail: expect.stringContaining('provider-error') });
    expect(report.ok).toBe(false);
  }, 60_000);

  it('works over TLS with the generated certificate', async () => {
    const report = await runProviderDemo({ tls: true });
    expect(report.ok).toBe(true);
  }, 60_000);
});
