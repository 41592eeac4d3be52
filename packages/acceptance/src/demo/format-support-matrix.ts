import { DEMO_CELL_KEYS, type DemoCell, type DemoReport } from './run-gateway-demo.js';

function formatCell(cell: DemoCell): string {
  if (cell.status === 'n/a' || cell.status === 'skipped') return cell.status;
  const latency = cell.latencyMs === undefined ? '' : ` ${cell.latencyMs < 10 ? cell.latencyMs.toFixed(1) : Math.round(cell.latencyMs)}ms`;
  return `${cell.status === 'pass' ? 'pass' : 'FAIL'}${latency}`;
}

/** The support matrix as aligned text: one row per family (then the cross-dialect rows), one column per operation. */
export function formatSupportMatrix(report: DemoReport): string {
  const header = ['client -> target', ...DEMO_CELL_KEYS];
  const rows = report.rows.map((row) => [row.label, ...DEMO_CELL_KEYS.map((key) => formatCell(row.cells[key]))]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]): string => cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}
