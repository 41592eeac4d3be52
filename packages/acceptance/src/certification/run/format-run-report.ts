import type { CaseEvidenceV1, CertificationEvidenceV1 } from '../evidence/certification-evidence-v1.js';

function modeOf(item: CaseEvidenceV1): string {
  if (item.executionMode === 'async-job') return 'async';
  return item.streamed ? 'stream' : 'sync';
}

function usageText(item: CaseEvidenceV1): string {
  const usage = item.usage;
  if (usage === undefined) return '-';
  const parts: string[] = [];
  if (usage.inputTokens !== undefined || usage.outputTokens !== undefined) parts.push(`${usage.inputTokens ?? '?'}/${usage.outputTokens ?? '?'} tok`);
  if (usage.images !== undefined) parts.push(`${usage.images} img`);
  if (usage.searchUnits !== undefined) parts.push(`${usage.searchUnits} su`);
  if (usage.videoSeconds !== undefined) parts.push(`${usage.videoSeconds} s`);
  return parts.length === 0 ? '-' : parts.join(', ');
}

function detailOf(item: CaseEvidenceV1): string {
  const details: string[] = [];
  if (item.terminal?.finishReason !== undefined) details.push(`finish ${item.terminal.finishReason}`);
  if (item.terminal?.failureCode !== undefined) details.push(`failure ${item.terminal.failureCode}`);
  if (item.job !== undefined) {
    details.push(`${item.job.acceptance}`);
    if (item.job.finalState !== undefined) details.push(`state ${item.job.finalState} after ${item.job.polls} poll(s)`);
    if (item.job.failureCode !== undefined) details.push(`failure ${item.job.failureCode}`);
    if (item.job.listed !== undefined) details.push(item.job.listed ? 'listed' : 'not listed');
  }
  const counts = item.counts;
  if (counts.streamEvents !== undefined) details.push(`${counts.streamEvents} events`);
  if (counts.vectors !== undefined) details.push(`${counts.vectors}x${counts.dimensions ?? '?'} vectors`);
  if (counts.images !== undefined) details.push(`${counts.images} image(s)`);
  if (counts.rankedItems !== undefined) details.push(`${counts.rankedItems} ranked`);
  if (counts.media !== undefined) details.push(`${counts.media} media`);
  if (item.error !== undefined) details.push(`${item.error.kind} ${item.error.code}`);
  return details.join(', ');
}

/** One progress line per case: position, family, mode, outcome and bounded facts (no ids, names or content). */
export function formatCaseLine(index: number, total: number, item: CaseEvidenceV1): string {
  const mark = item.outcome === 'succeeded' ? 'ok  ' : 'FAIL';
  return `${mark} [${String(index + 1).padStart(String(total).length)}/${total}] ${item.protocolFamily.padEnd(28)} ${modeOf(item).padEnd(6)} ${item.outcome.padEnd(17)} ${detailOf(item)}`;
}

/** The final table of a run: one row per case, then the totals. */
export function formatRunTable(evidence: CertificationEvidenceV1): string[] {
  const header = `${'#'.padEnd(4)} ${'family'.padEnd(28)} ${'mode'.padEnd(6)} ${'outcome'.padEnd(17)} ${'starts'.padStart(6)} ${'gets'.padStart(5)} ${'lists'.padStart(5)} ${'ms'.padStart(8)}  usage`;
  const lines = ['', header, '-'.repeat(header.length + 10)];
  evidence.cases.forEach((item, index) => {
    lines.push(
      `${String(index + 1).padEnd(4)} ${item.protocolFamily.padEnd(28)} ${modeOf(item).padEnd(6)} ${item.outcome.padEnd(17)} ${String(item.operations.executionStarts).padStart(6)} ${String(item.operations.asyncGetObservations).padStart(5)} ${String(item.operations.asyncListObservations).padStart(5)} ${String(item.durationMs).padStart(8)}  ${usageText(item)}`,
    );
  });
  const totals = evidence.totals;
  const succeeded = evidence.cases.filter((item) => item.outcome === 'succeeded').length;
  lines.push('');
  lines.push(`execution starts: ${totals.executionStarts}; async get observations: ${totals.asyncGetObservations}; async list observations: ${totals.asyncListObservations}; http requests: ${totals.httpRequests}`);
  lines.push(`run ${evidence.runStatus}${evidence.stopReason === undefined ? '' : ` (stopped: ${evidence.stopReason})`}; ${succeeded} of ${evidence.cases.length} case(s) succeeded${evidence.simulated ? '; SIMULATED evidence (never certifies)' : ''}`);
  return lines;
}
