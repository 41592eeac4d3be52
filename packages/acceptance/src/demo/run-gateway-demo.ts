import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateway, type RunningGateway } from '@tokenforge/gateway';
import { DEMO_CELL_KEYS, timedCell, type DemoCell, type DemoCellKey } from './demo-cell.js';
import { createDemoClients, type DemoClients } from './demo-clients.js';
import { runDemoAgentCliRows } from './demo-agent-cli-rows.js';
import { runDemoJobs } from './demo-jobs.js';
import { DEMO_CROSS_DIALECT_PLANS, DEMO_FAMILY_PLANS, type DemoCall, type DemoRowPlan } from './demo-plans.js';

/** One row of the matrix. */
export interface DemoRow {
  /** The family, or `<client> client -> <family>` for a cross-dialect row. */
  readonly label: string;
  /** The public model the client asked the gateway for. */
  readonly model: string;
  /** The family of the target that served it. */
  readonly targetFamily: string;
  /** Whether the client speaks another dialect than the target. */
  readonly crossDialect: boolean;
  readonly cells: Readonly<Record<DemoCellKey, DemoCell>>;
  /**
   * What the gateway's operator log says about this row's requests (its model on its route): how many it served,
   * and the families of the targets that answered them. For a cross-dialect row that is the other dialect.
   */
  readonly gatewayRequests: number;
  readonly servedBy: readonly string[];
  /** What the row needs beyond the workspace install: the agent-cli rows need the agent-clients install. */
  readonly needs?: 'agent-clients';
}

/** What {@link runGatewayDemo} observed. */
export interface DemoReport {
  /** Where the embedded gateway listened (an ephemeral loopback port, closed when the demo returns). */
  readonly gatewayUrl: string;
  /** The families the gateway's catalogue serves, sorted. */
  readonly families: readonly string[];
  readonly rows: readonly DemoRow[];
  /** Requests the gateway sent to the provider simulator (every cell crossed real HTTP twice). */
  readonly providerRequests: number;
  /** True when every cell that should pass did. */
  readonly ok: boolean;
}

/** Options of {@link runGatewayDemo}. */
export interface RunGatewayDemoOptions {
  /** Receives one line per step. Default: nothing. */
  readonly log?: (line: string) => void;
  /** Same-dialect plans by family. Default: {@link DEMO_FAMILY_PLANS}. */
  readonly plans?: Readonly<Record<string, DemoRowPlan>>;
  /** Cross-dialect rows. Default: {@link DEMO_CROSS_DIALECT_PLANS}. */
  readonly crossDialectPlans?: readonly DemoRowPlan[];
  /**
   * Whether to add the agent-cli rows (default true): each pinned coding-agent CLI as a provider, which needs the
   * agent-clients install; without it those rows are skipped with the reason, never failed.
   */
  readonly agentCliRows?: boolean;
  /** Where the agent-clients install is looked for (default: its usual place). */
  readonly agentClientsCache?: string;
}

export { DEMO_CELL_KEYS, type DemoCell, type DemoCellKey } from './demo-cell.js';

const NOT_APPLICABLE: DemoCell = { status: 'n/a' };

function emptyCells(): Record<DemoCellKey, DemoCell> {
  return { sync: NOT_APPLICABLE, stream: NOT_APPLICABLE, async: NOT_APPLICABLE, get: NOT_APPLICABLE, list: NOT_APPLICABLE, cancel: NOT_APPLICABLE };
}

function formatStep(label: string, key: string, cell: DemoCell): string {
  const mark = cell.status === 'pass' ? 'ok  ' : cell.status === 'skipped' ? 'skip' : 'FAIL';
  const latency = cell.latencyMs === undefined ? '' : `${cell.latencyMs.toFixed(1).padStart(8)} ms`;
  return `${mark} ${label.padEnd(32)} ${key.padEnd(7)} ${latency}  ${cell.detail ?? ''}`;
}

/**
 * A row before attribution. A jobs row keeps the span of operator log lines written while it ran: its get, list and
 * cancel lines name no model, and only one row uses the jobs routes at a time.
 */
type RowResult = Omit<DemoRow, 'gatewayRequests' | 'servedBy'> & { readonly route: string; readonly logSpan?: readonly [number, number] };

async function runRow(
  clients: DemoClients,
  gateway: RunningGateway,
  plan: DemoRowPlan,
  crossDialect: boolean,
  log: (line: string) => void,
  logLength: () => number,
): Promise<RowResult> {
  const spanStart = logLength();
  const cells = emptyCells();
  const emit = (key: DemoCellKey, cell: DemoCell): void => {
    cells[key] = cell;
    log(formatStep(plan.label, key, cell));
  };
  if (!gateway.models.some((model) => model.name === plan.model)) {
    emit('sync', { status: 'fail', detail: `the gateway serves no model ${plan.model}` });
  } else {
    for (const key of ['sync', 'stream'] as const) {
      const call: DemoCall | undefined = plan[key];
      if (call !== undefined) emit(key, await timedCell(() => call(clients, plan.model)));
    }
    if (plan.jobs !== undefined) await runDemoJobs(clients, plan.model, plan.jobs, timedCell, emit);
    if (plan.sync === undefined && plan.stream === undefined && plan.jobs === undefined) emit('sync', { status: 'fail', detail: 'the plan has no call' });
  }
  const row = { label: plan.label, model: plan.model, targetFamily: plan.targetFamily, route: plan.route, crossDialect, cells };
  return plan.jobs === undefined ? row : { ...row, logSpan: [spanStart, logLength()] };
}

/** The operator log lines the gateway wrote (one JSON object per request). */
interface LoggedRequest {
  readonly route?: string;
  readonly model?: string;
  readonly target?: { readonly family?: string };
}

function attribute(row: RowResult, logged: readonly LoggedRequest[]): DemoRow {
  const mine =
    row.logSpan === undefined
      ? logged.filter((line) => line.model === row.model && row.model !== '' && (line.route ?? '').startsWith(row.route))
      : logged.slice(row.logSpan[0], row.logSpan[1]).filter((line) => (line.route ?? '').includes(row.route));
  const servedBy = [...new Set(mine.flatMap((line) => (line.target?.family === undefined ? [] : [line.target.family])))].sort();
  const { route: _route, ...rest } = row;
  return { ...rest, gatewayRequests: mine.length, servedBy };
}

/**
 * Starts the gateway embedded (in this process, on an ephemeral loopback port, over its own provider simulator)
 * and runs every cell over real HTTP through it: the official OpenAI, Anthropic and Gemini SDKs for chat,
 * embeddings and images, plain fetch for rerank and jobs, then the cross-dialect rows, then the agent-cli rows (a
 * second gateway serving each pinned coding-agent CLI; skipped with the reason without the agent-clients install).
 * Returns the support matrix; `ok` is false when a declared cell failed (a skipped cell is not a failure). Always
 * closes the gateways.
 */
export async function runGatewayDemo(options: RunGatewayDemoOptions = {}): Promise<DemoReport> {
  const log = options.log ?? (() => {});
  const plans = options.plans ?? DEMO_FAMILY_PLANS;
  const crossDialectPlans = options.crossDialectPlans ?? DEMO_CROSS_DIALECT_PLANS;
  const operatorLog: string[] = [];
  // The embedded governance store in a data directory of this run: every attempt is admitted, settled and metered.
  const dataDir = mkdtempSync(join(tmpdir(), 'tokenforge-demo-'));
  const gateway = await startGateway({ dataDir, logger: { write: (line: string) => void operatorLog.push(line) } });
  const results: RowResult[] = [];
  const agentCliRows: DemoRow[] = [];
  let families: string[] = [];
  let providerRequests = 0;
  let metered: { attempts: number; costMicros: number; currency: string }[] = [];
  try {
    const clientKey = gateway.clientKey ?? '';
    log(`gateway listening on ${gateway.url} (embedded: provider simulator in-process, client key ${clientKey.slice(0, 12)}...)`);
    const clients = createDemoClients(gateway.url, clientKey);
    families = [...new Set(gateway.models.map((model) => model.family))].sort();
    for (const family of families) {
      const plan = plans[family];
      if (plan === undefined) {
        const cells = emptyCells();
        cells.sync = { status: 'fail', detail: 'no demo plan for this family' };
        log(formatStep(family, 'sync', cells.sync));
        results.push({ label: family, model: '', targetFamily: family, route: '', crossDialect: false, cells });
        continue;
      }
      results.push(await runRow(clients, gateway, plan, false, log, () => operatorLog.length));
    }
    for (const plan of crossDialectPlans) results.push(await runRow(clients, gateway, plan, true, log, () => operatorLog.length));
    providerRequests = gateway.simulator?.requests.length ?? 0;
    if (options.agentCliRows !== false) {
      const agentCli = await runDemoAgentCliRows((plan, key, cell) => log(formatStep(plan.label, key, cell)), options.agentClientsCache);
      for (const row of agentCli) {
        const cells = emptyCells();
        Object.assign(cells, row.cells);
        agentCliRows.push({ label: row.plan.label, model: row.plan.model, targetFamily: 'agent-cli/v1', crossDialect: false, cells, gatewayRequests: row.gatewayRequests, servedBy: row.servedBy, needs: 'agent-clients' });
      }
    }
    if (gateway.governance !== undefined) {
      await gateway.governance.settled();
      metered = [...(await gateway.governance.store.admin.spend({ groupBy: [] }))];
    }
  } finally {
    await gateway.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  // Read after close: a stream's line is written when it ends, which may be after its client finished reading.
  const logged = operatorLog.map((line) => JSON.parse(line) as LoggedRequest);
  const rows = [...results.map((row) => attribute(row, logged)), ...agentCliRows];
  for (const row of rows.filter((candidate) => candidate.crossDialect)) log(`     ${row.label}: served by ${row.servedBy.join(', ') || 'nothing'} (operator log)`);
  log(`operator log: ${logged.length} JSON lines, one per request; ${providerRequests} requests reached the provider simulator`);
  for (const group of metered) log(`spend ledger (embedded store): ${group.attempts} attempts settled, ${(group.costMicros / 1e6).toFixed(6)} ${group.currency}`);
  const ok = rows.every((row) => DEMO_CELL_KEYS.every((key) => row.cells[key].status !== 'fail'));
  return { gatewayUrl: gateway.url, families, rows, providerRequests, ok };
}
