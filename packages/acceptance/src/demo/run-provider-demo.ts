import { createHttpProviderTransport, type HttpProviderTransport } from '@tokenforge/http-transport';
import { isProviderTransportFailureV1, type AdapterTerminalOutcome, type ProtocolFamily, type TaskEnvelopeV2 } from '@tokenforge/model-protocol';
import {
  createProtocolEngineTargetBindingV1,
  createProtocolEngineV1,
  isProtocolEngineErrorV1,
  type ProtocolEngineTargetBindingV1,
  type ProtocolEngineV1,
} from '@tokenforge/protocol-engine';
import { createBuiltinTokenForgeProtocolSuiteV1, type TokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';
import { startProviderSimulator, type ProviderSimulator } from '@tokenforge/provider-simulator';
import { DEMO_FAMILY_PLANS, type DemoFamilyPlan } from './demo-family-plans.js';

/** The columns of the support matrix. */
export const DEMO_CELL_KEYS = ['sync', 'stream', 'async', 'get', 'list', 'cancel'] as const;
export type DemoCellKey = (typeof DEMO_CELL_KEYS)[number];

/** The observed outcome of one cell. */
export interface DemoCell {
  /** `n/a` when the family does not declare the operation. */
  readonly status: 'pass' | 'fail' | 'n/a';
  /** Wall time of the step in milliseconds (pass or fail). */
  readonly latencyMs?: number;
  /** A short description of what was observed. */
  readonly detail?: string;
}

/** One family's row. */
export interface DemoRow {
  readonly protocolFamily: string;
  readonly cells: Readonly<Record<DemoCellKey, DemoCell>>;
}

/** What {@link runProviderDemo} observed. */
export interface DemoReport {
  readonly engineFamilies: readonly string[];
  readonly rows: readonly DemoRow[];
  /** The Anthropic-dialect client streamed through an openai-chat provider (`n/a` when either family is missing). */
  readonly crossDialect: DemoCell & { readonly clientBytes?: string };
  /** True when every cell that should pass did. */
  readonly ok: boolean;
}

/** Options of {@link runProviderDemo}. */
export interface RunProviderDemoOptions {
  /** Receives one line per step. Default: nothing. */
  readonly log?: (line: string) => void;
  /** Run the simulator over HTTPS (the transports then trust its certificate). Default `false`. */
  readonly tls?: boolean;
  /** The suite to build the engine from. Default: `createBuiltinTokenForgeProtocolSuiteV1()`. */
  readonly suite?: TokenForgeProtocolSuiteV1;
  /** Plans by family. Default: {@link DEMO_FAMILY_PLANS}. */
  readonly plans?: Readonly<Record<string, DemoFamilyPlan>>;
}

const NOT_APPLICABLE: DemoCell = { status: 'n/a' };
const TERMINAL_JOB_STATES = new Set(['succeeded', 'failed', 'cancelled']);

class StepFailure extends Error {}

function check(condition: boolean, what: string): asserts condition {
  if (!condition) throw new StepFailure(what);
}

/** A description of a failure that never repeats provider payloads or secrets. */
function describeError(error: unknown): string {
  if (error instanceof StepFailure) return error.message;
  if (isProtocolEngineErrorV1(error)) return `${error.code} (${error.phase})`;
  if (isProviderTransportFailureV1(error)) return `transport ${error.reason} (${error.stage})`;
  return `unexpected ${error instanceof Error ? error.name : typeof error}`;
}

function describeTerminal(terminal: AdapterTerminalOutcome): string {
  if (terminal.status === 'cancelled') return 'cancelled';
  if (terminal.status === 'failed') return `failed (${terminal.failure.code})`;
  const usage = terminal.usage === undefined ? '' : `, ${terminal.usage.inputTokens ?? '?'} in / ${terminal.usage.outputTokens ?? '?'} out`;
  const result = terminal.result;
  switch (result.kind) {
    case 'chat': {
      const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
      return `"${text.length > 40 ? `${text.slice(0, 40)}...` : text}" (finish ${terminal.finishReason?.unified ?? 'n/a'}${usage})`;
    }
    case 'embedding':
      return `${result.vectors.length} vectors x ${result.dimensions} dimensions${usage}`;
    case 'image-generation':
    case 'image-edit':
      return `${result.images.length} image(s)${usage}`;
    case 'rerank':
      return `${result.results.length} ranked, best index ${result.results[0]?.index ?? '-'}`;
    default: {
      const unknownResult: never = result;
      return `${(unknownResult as { kind: string }).kind} result`;
    }
  }
}

async function timed(run: () => Promise<string>): Promise<DemoCell> {
  const started = performance.now();
  try {
    const detail = await run();
    return { status: 'pass', latencyMs: performance.now() - started, detail };
  } catch (error) {
    return { status: 'fail', latencyMs: performance.now() - started, detail: describeError(error) };
  }
}

async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

interface FamilyContext {
  readonly engine: ProtocolEngineV1;
  readonly binding: ProtocolEngineTargetBindingV1;
  readonly signal: AbortSignal;
}

async function runSync(context: FamilyContext, task: TaskEnvelopeV2): Promise<string> {
  const execution = await context.engine.execute({ binding: context.binding, task, signal: context.signal });
  check(execution.kind === 'response', `expected a response, got ${execution.kind}`);
  check(execution.terminal.status === 'completed', `terminal ${describeTerminal(execution.terminal)}`);
  return describeTerminal(execution.terminal);
}

async function runStream(context: FamilyContext, task: TaskEnvelopeV2): Promise<string> {
  const execution = await context.engine.execute({ binding: context.binding, task, signal: context.signal });
  check(execution.kind === 'stream', `expected a stream, got ${execution.kind}`);
  let events = 0;
  try {
    for await (const _event of execution.events) events += 1;
  } catch (error) {
    execution.abort(error);
    throw error;
  }
  const terminal = await execution.terminal;
  check(terminal.status === 'completed', `terminal ${describeTerminal(terminal)}`);
  return `${events} events, ${describeTerminal(terminal)}`;
}

async function startJob(context: FamilyContext, task: TaskEnvelopeV2): Promise<string> {
  const execution = await context.engine.execute({ binding: context.binding, task, signal: context.signal });
  check(execution.kind === 'accepted-job', execution.kind === 'rejected' ? `rejected (${execution.failureCode})` : `expected an accepted job, got ${execution.kind}`);
  return execution.providerJobId;
}

async function pollToTerminal(context: FamilyContext, providerJobId: string): Promise<{ state: string; polls: number; seen: string[] }> {
  const deadline = performance.now() + 15_000;
  const seen: string[] = [];
  for (let polls = 1; ; polls += 1) {
    const { snapshot } = await context.engine.jobs.get({ binding: context.binding, providerJobId, signal: context.signal });
    if (seen[seen.length - 1] !== snapshot.state) seen.push(snapshot.state);
    if (TERMINAL_JOB_STATES.has(snapshot.state)) return { state: snapshot.state, polls, seen };
    check(performance.now() < deadline, `job still ${snapshot.state} after 15 s`);
    await sleep(40);
  }
}

async function runAsyncRow(context: FamilyContext, plan: DemoFamilyPlan, operations: readonly string[], cells: Record<DemoCellKey, DemoCell>, emit: (key: DemoCellKey, cell: DemoCell) => void): Promise<void> {
  const task = plan.async;
  if (task === undefined) {
    cells.async = { status: 'fail', detail: 'no async task in the demo plan' };
    emit('async', cells.async);
    return;
  }
  let jobId: string | undefined;
  cells.async = await timed(async () => {
    jobId = await startJob(context, task);
    const { state, polls, seen } = await pollToTerminal(context, jobId);
    check(state === 'succeeded', `job ended ${state}`);
    return `accepted, ${seen.join(' -> ')} after ${polls} polls`;
  });
  emit('async', cells.async);
  if (operations.includes('get')) {
    cells.get = await timed(async () => {
      check(jobId !== undefined, 'no job to read');
      const { snapshot } = await context.engine.jobs.get({ binding: context.binding, providerJobId: jobId, signal: context.signal });
      check(snapshot.providerJobId === jobId, 'get returned another job');
      return `${snapshot.state}${snapshot.media === undefined ? '' : `, ${snapshot.media.length} media`}`;
    });
    emit('get', cells.get);
  }
  if (operations.includes('list')) {
    cells.list = await timed(async () => {
      const page = await context.engine.jobs.list({ binding: context.binding, pageNum: 1, pageSize: 10, signal: context.signal });
      check(jobId !== undefined && page.items.some((item) => item.providerJobId === jobId), 'the job is not on page 1');
      return `${page.items.length} item(s) on page 1, total ${page.total} (${page.totalKind ?? 'exact'})`;
    });
    emit('list', cells.list);
  }
  if (operations.includes('cancel')) {
    cells.cancel = await timed(async () => {
      const second = await startJob(context, task);
      await context.engine.jobs.cancel({ binding: context.binding, providerJobId: second, signal: context.signal });
      const { snapshot } = await context.engine.jobs.get({ binding: context.binding, providerJobId: second, signal: context.signal });
      check(snapshot.state === 'cancelled', `cancelled job reads ${snapshot.state}`);
      return 'queued job cancelled, get reads cancelled';
    });
    emit('cancel', cells.cancel);
  }
}

function emptyCells(): Record<DemoCellKey, DemoCell> {
  return { sync: NOT_APPLICABLE, stream: NOT_APPLICABLE, async: NOT_APPLICABLE, get: NOT_APPLICABLE, list: NOT_APPLICABLE, cancel: NOT_APPLICABLE };
}

function formatStep(family: string, key: string, cell: DemoCell): string {
  const mark = cell.status === 'pass' ? 'ok  ' : 'FAIL';
  const latency = cell.latencyMs === undefined ? '' : `${cell.latencyMs.toFixed(1).padStart(8)} ms`;
  return `${mark} ${family.padEnd(28)} ${key.padEnd(7)} ${latency}  ${cell.detail ?? ''}`;
}

const CLIENT_REQUEST = JSON.stringify({
  model: 'claude-sonnet-4-5',
  max_tokens: 256,
  stream: true,
  messages: [{ role: 'user', content: 'Say hello from an Anthropic client.' }],
});

async function runCrossDialect(
  suite: TokenForgeProtocolSuiteV1,
  engine: ProtocolEngineV1,
  bindingFor: (family: ProtocolFamily, plan: DemoFamilyPlan) => ProtocolEngineTargetBindingV1,
  plans: Readonly<Record<string, DemoFamilyPlan>>,
  signal: AbortSignal,
): Promise<DemoCell & { clientBytes?: string }> {
  const client = 'anthropic-messages/v1';
  const provider = 'openai-chat/v1';
  const plan = plans[provider];
  if (!engine.protocolFamilies.includes(client) || !engine.protocolFamilies.includes(provider) || plan === undefined) return NOT_APPLICABLE;
  const clientCodecs = suite.codecsFor(client);
  if (clientCodecs?.egress.createStreamEncoder === undefined) return NOT_APPLICABLE;
  let clientBytes = '';
  const cell = await timed(async () => {
    const decoded = clientCodecs.ingress.decodeRequest({ path: '/v1/messages', body: new TextEncoder().encode(CLIENT_REQUEST) });
    const execution = await engine.execute({ binding: bindingFor(provider, plan), task: decoded.task, signal });
    check(execution.kind === 'stream', `expected a stream, got ${execution.kind}`);
    const encoder = clientCodecs.egress.createStreamEncoder?.({ responseId: 'msg_demo_0001', modelLabel: decoded.modelLabel, createdAtMs: Date.now() });
    check(encoder !== undefined, 'the anthropic egress codec has no stream encoder');
    const decoder = new TextDecoder();
    try {
      for await (const event of execution.events) clientBytes += decoder.decode(encoder.encodeEvent(event), { stream: true });
    } catch (error) {
      execution.abort(error);
      throw error;
    }
    const terminal = await execution.terminal;
    clientBytes += decoder.decode(encoder.encodeTerminal(terminal));
    check(terminal.status === 'completed', `terminal ${describeTerminal(terminal)}`);
    check(clientBytes.includes('event: message_stop'), 'the client stream has no message_stop');
    return `anthropic client -> openai-chat provider -> anthropic SSE, ${Buffer.byteLength(clientBytes)} bytes`;
  });
  return { ...cell, clientBytes };
}

/**
 * Starts the provider simulator, builds an engine from the builtin suite, binds one http-transport per family
 * connection and runs every family the engine lists through the public engine API. Returns the support matrix;
 * `ok` is false when a cell that should pass did not. Always closes the transports and the simulator.
 */
export async function runProviderDemo(options: RunProviderDemoOptions = {}): Promise<DemoReport> {
  const log = options.log ?? (() => {});
  const plans = options.plans ?? DEMO_FAMILY_PLANS;
  const simulator: ProviderSimulator = await startProviderSimulator({ tls: options.tls ?? false, jobTimings: { queuedMs: 150, runningMs: 150 } });
  const transports = new Map<string, HttpProviderTransport>();
  const signal = new AbortController().signal;
  try {
    log(`simulator listening on ${simulator.url}`);
    const suite = options.suite ?? createBuiltinTokenForgeProtocolSuiteV1();
    const engine = createProtocolEngineV1({ registry: suite.registry });
    log(`engine ${engine.apiVersion} serves ${engine.protocolFamilies.length} families: ${engine.protocolFamilies.join(', ')}`);

    const transportFor = (family: ProtocolFamily): HttpProviderTransport => {
      let transport = transports.get(family);
      if (transport === undefined) {
        const baseUrl = simulator.baseUrlFor(family);
        const credentials = simulator.credentialsFor(family);
        if (baseUrl === undefined || credentials === undefined) throw new StepFailure('the simulator does not speak this family');
        transport = createHttpProviderTransport({
          baseUrl,
          credentials,
          metadata: suite.transportMetadataFor(family),
          policy: {
            allowedAddressCategories: ['loopback'],
            allowInsecureHttpToLoopback: true,
            ...(simulator.certificate === undefined ? {} : { trustedCertificates: simulator.certificate.cert }),
          },
        });
        transports.set(family, transport);
      }
      return transport;
    };
    const bindingFor = (family: ProtocolFamily, plan: DemoFamilyPlan): ProtocolEngineTargetBindingV1 =>
      createProtocolEngineTargetBindingV1({
        target: { provider: 'provider-simulator', providerModel: plan.providerModel, connectionRef: `simulator/${family}`, capability: { ...plan.capability, protocolFamily: family } },
        bindTransport: () => transportFor(family),
      });

    const rows: DemoRow[] = [];
    for (const family of engine.protocolFamilies) {
      const cells = emptyCells();
      const emit = (key: DemoCellKey, cell: DemoCell): void => log(formatStep(family, key, cell));
      const plan = plans[family];
      const entry = suite.entries.find((candidate) => candidate.protocolFamily === family);
      if (plan === undefined || entry === undefined) {
        cells.sync = { status: 'fail', detail: 'no demo plan for this family' };
        emit('sync', cells.sync);
        rows.push({ protocolFamily: family, cells });
        continue;
      }
      const context: FamilyContext = { engine, binding: bindingFor(family, plan), signal };
      if (entry.execution === 'sync') {
        if (plan.sync !== undefined) {
          const task = plan.sync;
          cells.sync = await timed(() => runSync(context, task));
          emit('sync', cells.sync);
        }
        if (plan.stream !== undefined) {
          const task = plan.stream;
          cells.stream = await timed(() => runStream(context, task));
          emit('stream', cells.stream);
        }
        if (plan.sync === undefined && plan.stream === undefined) {
          cells.sync = { status: 'fail', detail: 'the plan has no sync or stream task for a sync family' };
          emit('sync', cells.sync);
        }
      } else {
        await runAsyncRow(context, plan, entry.asyncAdapterFactory.jobOperations, cells, emit);
      }
      rows.push({ protocolFamily: family, cells });
    }

    const crossDialect = await runCrossDialect(suite, engine, bindingFor, plans, signal);
    if (crossDialect.status !== 'n/a') {
      log(formatStep('anthropic -> openai-chat', 'stream', crossDialect));
      if (crossDialect.clientBytes !== undefined) {
        const lines = crossDialect.clientBytes.split('\n').filter((line) => line.length > 0).slice(0, 6);
        for (const line of lines) log(`     client SSE | ${line.length > 110 ? `${line.slice(0, 110)}...` : line}`);
      }
    }
    const ok = rows.every((row) => DEMO_CELL_KEYS.every((key) => row.cells[key].status !== 'fail')) && crossDialect.status !== 'fail';
    return { engineFamilies: engine.protocolFamilies, rows, crossDialect, ok };
  } finally {
    await Promise.allSettled([...transports.values()].map((transport) => transport.destroy()));
    await simulator.close();
  }
}
