import { readFile } from 'node:fs/promises';
import {
  isCodecErrorV1,
  protocolCapabilityV2Schema,
  protocolCapabilityV3Schema,
  taskEnvelopeV2Schema,
  type AdapterTerminalOutcomeV4,
  type EgressCodecV1,
  type EgressContextV1,
  type ProtocolCapabilityV2,
  type ProtocolCapabilityV3,
  type ProtocolFamily,
  type ProviderDiagnosticV3,
  type TaskEnvelopeV4,
} from '@tokenforge/model-protocol';
import {
  createProtocolEngineTargetBindingV1,
  createProtocolEngineV1,
  isProtocolEngineErrorV1,
  type ProtocolEngineAcceptedJobV1,
  type ProtocolEngineDispatchTargetV1,
  type ProtocolEngineRejectedV1,
  type ProtocolEngineTargetBindingV1,
  type ProtocolEngineV1,
} from '@tokenforge/protocol-engine';
import {
  createFixtureTransportV1,
  isFixtureTransportErrorV1,
  type FixtureResponseV1,
  type FixtureTransportV1,
  type TokenForgeProtocolSuiteV1,
} from '@tokenforge/provider-adapters';
import { parseReplayArguments, REPLAY_USAGE, ReplayUsageError, type ReplayArgumentsV1 } from './parse-replay-arguments.js';
import { DEFAULT_CHUNK_FRAMING, defaultReplayCapability } from './replay-defaults.js';

/** Exit statuses of `pnpm replay`. */
export const REPLAY_EXIT = { completed: 0, failed: 1, usage: 2, engineError: 3 } as const;

/** Where replay reads files and writes its output. */
export interface RunReplayInputV1 {
  /** The command line after the script name. */
  readonly argv: readonly string[];
  /** The suite whose registry and codecs replay uses (the builtin suite from the CLI). */
  readonly suite: TokenForgeProtocolSuiteV1;
  /** Reads a file (default: the file system). */
  readonly readFile?: (path: string) => Promise<Uint8Array>;
  /** Receives the output: JSON lines, or client-dialect bytes with `--egress`. */
  readonly stdout: (chunk: string | Uint8Array) => void;
  /** Receives diagnostics. */
  readonly stderr: (text: string) => void;
}

const EGRESS_CONTEXT_ID = 'replay-response';
const textDecoder = new TextDecoder();

function toJsonLine(value: unknown): string {
  return `${JSON.stringify(value, (_key, item: unknown) => (ArrayBuffer.isView(item) ? Array.from(item as unknown as ArrayLike<number>) : item))}\n`;
}

function parseJsonFile(bytes: Uint8Array, what: string): unknown {
  try {
    return JSON.parse(textDecoder.decode(bytes)) as unknown;
  } catch {
    throw new ReplayUsageError(`${what} is not valid JSON`);
  }
}

async function readInput(read: (path: string) => Promise<Uint8Array>, path: string, what: string): Promise<Uint8Array> {
  try {
    return await read(path);
  } catch {
    throw new ReplayUsageError(`cannot read ${what} ${path}`);
  }
}

function guessContentType(path: string, bytes: Uint8Array): string {
  if (path.endsWith('.json')) return 'application/json';
  const text = textDecoder.decode(bytes.subarray(0, 64)).replace(/^\uFEFF/, '').trimStart();
  return text.startsWith('{') || text.startsWith('[') ? 'application/json' : 'text/event-stream';
}

async function loadResponses(args: ReplayArgumentsV1, read: (path: string) => Promise<Uint8Array>): Promise<FixtureResponseV1[]> {
  const responses: FixtureResponseV1[] = [];
  for (const path of args.responses) {
    const bytes = await readInput(read, path, 'response file');
    const headers = args.contentType === undefined ? undefined : { 'content-type': args.contentType };
    if (args.chunksJsonl || path.endsWith('.chunks.txt')) {
      const framing = args.framing ?? DEFAULT_CHUNK_FRAMING[args.family];
      if (framing === undefined) throw new ReplayUsageError(`no default chunk framing for ${args.family}: pass --framing`);
      responses.push({
        label: path,
        status: args.status,
        ...(headers === undefined ? {} : { headers }),
        body: { type: 'chunks', text: textDecoder.decode(bytes), framing },
      });
    } else {
      responses.push({
        label: path,
        status: args.status,
        headers: headers ?? { 'content-type': guessContentType(path, bytes) },
        body: { type: 'bytes', bytes },
      });
    }
  }
  return responses;
}

interface ResolvedTask {
  readonly task: TaskEnvelopeV4;
  readonly modelLabel?: string;
}

/** Builds the task; prints an ingress codec error and returns `undefined` when the client request is refused. */
async function resolveTask(
  args: ReplayArgumentsV1,
  suite: TokenForgeProtocolSuiteV1,
  read: (path: string) => Promise<Uint8Array>,
  stdout: (chunk: string) => void,
): Promise<ResolvedTask | undefined> {
  const source = args.taskSource;
  if (source.kind === 'task') {
    const parsed = taskEnvelopeV2Schema.safeParse(parseJsonFile(await readInput(read, source.taskFile, 'task file'), 'the task file'));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ReplayUsageError(`the task file is not a valid task (${issue === undefined ? 'invalid' : `${issue.path.join('.')}: ${issue.message}`})`);
    }
    return { task: parsed.data as TaskEnvelopeV4 };
  }
  const ingress = codecsOf(suite, source.family, '--ingress').ingress;
  const body = await readInput(read, source.requestFile, 'client request file');
  const [path = '/', queryText] = source.requestPath.split('?', 2);
  const query = queryText === undefined ? undefined : Object.fromEntries(new URLSearchParams(queryText));
  try {
    const decoded = ingress.decodeRequest({ path, ...(query === undefined ? {} : { query }), body });
    return { task: decoded.task, modelLabel: decoded.modelLabel };
  } catch (error) {
    if (!isCodecErrorV1(error)) throw error;
    stdout(toJsonLine({ type: 'ingress-error', code: error.code, ...(error.path === undefined ? {} : { path: error.path }) }));
    return undefined;
  }
}

function codecsOf(suite: TokenForgeProtocolSuiteV1, family: ProtocolFamily, flag: string) {
  let codecs;
  try {
    codecs = suite.codecsFor(family);
  } catch {
    throw new ReplayUsageError(`${flag} ${family} is not a family of the suite`);
  }
  if (codecs === undefined) throw new ReplayUsageError(`${flag} ${family} does not take part in direct HTTP (no codecs)`);
  return codecs;
}

async function resolveCapability(
  args: ReplayArgumentsV1,
  suite: TokenForgeProtocolSuiteV1,
  task: TaskEnvelopeV4,
  read: (path: string) => Promise<Uint8Array>,
): Promise<ProtocolCapabilityV2 | ProtocolCapabilityV3> {
  if (args.capabilityFile !== undefined) {
    const value = parseJsonFile(await readInput(read, args.capabilityFile, 'capability file'), 'the capability file');
    const v2 = protocolCapabilityV2Schema.safeParse(value);
    if (v2.success) return v2.data;
    const v3 = protocolCapabilityV3Schema.safeParse(value);
    if (!v3.success) throw new ReplayUsageError('the capability file is not a valid capability');
    return v3.data;
  }
  const entry = suite.entries.find((candidate) => candidate.protocolFamily === args.family);
  const capability = defaultReplayCapability({
    family: args.family,
    async: entry?.execution === 'async',
    task,
    ...(args.embeddingDimensions === undefined ? {} : { embeddingDimensions: args.embeddingDimensions }),
  });
  if (typeof capability === 'string') throw new ReplayUsageError(capability);
  return capability;
}

function terminalExit(terminal: AdapterTerminalOutcomeV4): number {
  return terminal.status === 'completed' ? REPLAY_EXIT.completed : REPLAY_EXIT.failed;
}

/** One link of an error's cause chain as replay prints it: what refused, by which rule, never a payload. */
interface CauseLine {
  readonly name: string;
  readonly message: string;
  readonly code?: string;
  readonly reason?: string;
}

/** The `cause` chain below an engine error (non-enumerable on engine errors), at most eight links. */
function causeChainOf(error: unknown): CauseLine[] {
  const chain: CauseLine[] = [];
  let current: unknown = (error as { cause?: unknown }).cause;
  while (current !== undefined && current !== null && chain.length < 8) {
    if (current instanceof Error || typeof current === 'object') {
      const record = current as { name?: unknown; message?: unknown; code?: unknown; reason?: unknown; cause?: unknown };
      chain.push({
        name: typeof record.name === 'string' ? record.name : 'Error',
        message: typeof record.message === 'string' ? record.message : '',
        ...(typeof record.code === 'string' ? { code: record.code } : {}),
        ...(typeof record.reason === 'string' ? { reason: record.reason } : {}),
      });
      current = record.cause;
    } else {
      chain.push({ name: typeof current, message: String(current) });
      break;
    }
  }
  return chain;
}

function engineErrorLine(error: unknown): { type: 'engine-error'; code: string; phase: string; message: string; causes?: CauseLine[] } {
  if (!isProtocolEngineErrorV1(error)) throw error;
  const causes = causeChainOf(error);
  return { type: 'engine-error', code: error.code, phase: error.phase, message: error.message, ...(causes.length === 0 ? {} : { causes }) };
}

interface Session {
  readonly engine: ProtocolEngineV1;
  readonly binding: ProtocolEngineTargetBindingV1;
  readonly transport: FixtureTransportV1;
  readonly task: TaskEnvelopeV4;
  readonly args: ReplayArgumentsV1;
  readonly stdout: (chunk: string | Uint8Array) => void;
  readonly stderr: (text: string) => void;
}

async function observeJobs(session: Session, providerJobId: string): Promise<number> {
  const { engine, binding, transport, args, stdout } = session;
  const observer = { onDiagnostic: (diagnostic: ProviderDiagnosticV3) => stdout(toJsonLine({ type: 'diagnostic', ...diagnostic })) };
  while (transport.remaining > 0) {
    const signal = new AbortController().signal;
    try {
      if (args.jobOperation === 'get') {
        const observation = await engine.jobs.get({ binding, providerJobId, signal, observer });
        stdout(toJsonLine({ type: 'observation', snapshot: observation.snapshot }));
      } else {
        const { apiVersion: _apiVersion, ...page } = await engine.jobs.list({ binding, pageNum: 1, pageSize: 20, signal, observer });
        stdout(toJsonLine({ type: 'list', ...page }));
      }
    } catch (error) {
      stdout(toJsonLine(engineErrorLine(error)));
      return REPLAY_EXIT.engineError;
    }
  }
  return REPLAY_EXIT.completed;
}

async function printAsyncStart(session: Session, execution: ProtocolEngineAcceptedJobV1 | ProtocolEngineRejectedV1): Promise<number> {
  const { stdout } = session;
  if (execution.kind === 'accepted-job') {
    stdout(toJsonLine({ type: 'accepted-job', providerJobId: execution.providerJobId, responseMetadata: execution.responseMetadata }));
    return observeJobs(session, execution.providerJobId);
  }
  stdout(
    toJsonLine({
      type: 'rejected',
      acceptance: execution.acceptance.state,
      failureCode: execution.failureCode,
      retryable: execution.retryable,
      responseMetadata: execution.responseMetadata,
    }),
  );
  return REPLAY_EXIT.failed;
}

async function replayAsJsonLines(session: Session): Promise<number> {
  const { engine, binding, task, stdout } = session;
  let execution;
  // Why a failed terminal failed (rule, location, expected): host-private detail, printed as its own line.
  const observer = { onDiagnostic: (diagnostic: ProviderDiagnosticV3) => stdout(toJsonLine({ type: 'diagnostic', ...diagnostic })) };
  try {
    execution = await engine.execute({ binding, task, signal: new AbortController().signal, observer });
  } catch (error) {
    stdout(toJsonLine(engineErrorLine(error)));
    return REPLAY_EXIT.engineError;
  }
  switch (execution.kind) {
    case 'response':
      stdout(toJsonLine({ type: 'terminal', acceptance: execution.acceptance.state, responseMetadata: execution.responseMetadata, terminal: execution.terminal }));
      return terminalExit(execution.terminal);
    case 'stream': {
      try {
        for await (const event of execution.events) stdout(toJsonLine({ type: 'event', event }));
        const terminal = await execution.terminal;
        stdout(toJsonLine({ type: 'terminal', acceptance: execution.acceptance.state, responseMetadata: execution.responseMetadata, terminal }));
        return terminalExit(terminal);
      } catch (error) {
        execution.abort(error);
        stdout(toJsonLine(engineErrorLine(error)));
        return REPLAY_EXIT.engineError;
      }
    }
    case 'accepted-job':
    case 'rejected':
      return printAsyncStart(session, execution);
    default: {
      const unknownExecution: never = execution;
      throw new Error(`unknown execution kind ${String((unknownExecution as { kind?: unknown }).kind)}`);
    }
  }
}

async function replayAsEgress(session: Session, egress: EgressCodecV1, context: EgressContextV1): Promise<number> {
  const { engine, binding, task, stdout, stderr } = session;
  const writeHttp = (response: { status: number; headers: Readonly<Record<string, string>>; body: Uint8Array }): void => {
    stderr(`egress status ${response.status} ${JSON.stringify(response.headers)}\n`);
    stdout(response.body);
  };
  let execution;
  const observer = { onDiagnostic: (diagnostic: ProviderDiagnosticV3) => stderr(toJsonLine({ type: 'diagnostic', ...diagnostic })) };
  try {
    execution = await engine.execute({ binding, task, signal: new AbortController().signal, observer });
  } catch (error) {
    const line = engineErrorLine(error);
    writeHttp(egress.encodeError({ source: 'engine', code: line.code }, context));
    return REPLAY_EXIT.engineError;
  }
  switch (execution.kind) {
    case 'response':
      writeHttp(egress.encodeResponse(execution.terminal, context));
      return terminalExit(execution.terminal);
    case 'stream': {
      const encoder = egress.createStreamEncoder?.(context);
      try {
        if (encoder === undefined) {
          stderr('the egress dialect does not stream: printing the whole response\n');
          for await (const _event of execution.events) {
            // drained only so the terminal settles
          }
          const terminal = await execution.terminal;
          writeHttp(egress.encodeResponse(terminal, context));
          return terminalExit(terminal);
        }
        stderr(`egress stream ${encoder.contentType}\n`);
        for await (const event of execution.events) stdout(encoder.encodeEvent(event));
        const terminal = await execution.terminal;
        stdout(encoder.encodeTerminal(terminal));
        return terminalExit(terminal);
      } catch (error) {
        execution.abort(error);
        const line = engineErrorLine(error);
        stderr(toJsonLine(line));
        return REPLAY_EXIT.engineError;
      }
    }
    case 'accepted-job':
    case 'rejected':
      stderr('an async start has no client-dialect body: printing JSON lines\n');
      return printAsyncStart(session, execution);
    default: {
      const unknownExecution: never = execution;
      throw new Error(`unknown execution kind ${String((unknownExecution as { kind?: unknown }).kind)}`);
    }
  }
}

/**
 * Replays recorded provider responses through a family's adapter with the public engine API and prints what the
 * engine made of them. The logic behind `pnpm replay`; returns the exit status.
 */
export async function runReplayV1(input: RunReplayInputV1): Promise<number> {
  const read = input.readFile ?? (async (path: string) => new Uint8Array(await readFile(path)));
  const { stdout, stderr, suite } = input;
  if (input.argv.includes('--help') || input.argv.includes('-h')) {
    stdout(`${REPLAY_USAGE}\n`);
    return REPLAY_EXIT.completed;
  }
  try {
    const args = parseReplayArguments(input.argv);
    const engine = createProtocolEngineV1({ registry: suite.registry });
    if (!engine.protocolFamilies.includes(args.family)) {
      throw new ReplayUsageError(`--family ${args.family} is not registered; families: ${engine.protocolFamilies.join(', ') || '(none)'}`);
    }
    const egressFamily = args.taskSource.kind === 'ingress' ? args.taskSource.family : args.family;
    const egress = args.egress ? codecsOf(suite, egressFamily, args.taskSource.kind === 'ingress' ? '--ingress' : '--family').egress : undefined;
    const resolved = await resolveTask(args, suite, read, stdout);
    if (resolved === undefined) return REPLAY_EXIT.usage;
    const capability = await resolveCapability(args, suite, resolved.task, read);
    const responses = await loadResponses(args, read);
    let transport: FixtureTransportV1;
    try {
      transport = createFixtureTransportV1({ responses });
    } catch (error) {
      if (isFixtureTransportErrorV1(error)) throw new ReplayUsageError(`the response files cannot be replayed (${error.code}): ${error.message}`);
      throw error;
    }
    const providerModel = resolved.modelLabel ?? 'replay-model';
    const binding = createProtocolEngineTargetBindingV1({
      target: { provider: 'replay', providerModel, connectionRef: 'replay', capability } as ProtocolEngineDispatchTargetV1,
      bindTransport: () => transport,
    });
    const session: Session = { engine, binding, transport, task: resolved.task, args, stdout, stderr };
    const exit =
      egress === undefined
        ? await replayAsJsonLines(session)
        : await replayAsEgress(session, egress, { responseId: EGRESS_CONTEXT_ID, modelLabel: providerModel, createdAtMs: 0 });
    if (args.showRequests) {
      const write = egress === undefined ? stdout : stderr;
      for (const request of transport.requests) write(toJsonLine({ type: 'request', ...request }));
    }
    if (transport.remaining > 0) stderr(`note: ${transport.remaining} response file(s) were never requested\n`);
    return exit;
  } catch (error) {
    if (error instanceof ReplayUsageError) {
      stderr(`replay: ${error.message}\n\n${REPLAY_USAGE}\n`);
      return REPLAY_EXIT.usage;
    }
    throw error;
  }
}
