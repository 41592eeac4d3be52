import {
  isCodecErrorV1,
  type NormalizedProviderFailureV3,
  type ProtocolFamily,
  type ProviderAsyncJobAdapterFactory,
  type ProviderAsyncJobListOperationInputV1,
  type ProviderAsyncJobListPageV2,
  type ProviderAsyncJobOperationInputV1,
  type ProviderAsyncJobOperationResultV1,
  type ProviderAsyncJobSnapshotV2,
  type ProviderAsyncJobStartInputV1,
  type ProviderAsyncJobStartOutcomeV1,
  type ProviderTransportMetadataV1,
  type ProviderTransportRequest,
  type ProviderTransportResponse,
} from '@tokenforge/model-protocol';
import type { AsyncProtocolSuiteEntryV1 } from '../suite/protocol-suite-entry-v1.js';
import { classifyAsyncStartError } from './classify-async-start-error.js';
import { diagnosticForError, reportDiagnostic, type DiagnosticReport } from './diagnostic-for-error.js';
import { readJsonResponse, type JsonResponseOutcome } from './json-response.js';
import { isProtocolViolationError } from './protocol-violation-error.js';

/** Options every async job family's adapter factory takes. */
export interface AsyncJobFamilyOptionsV1 {
  /** Clock for HTTP-date `Retry-After` hints, in epoch milliseconds (default `Date.now`). */
  readonly now?: () => number;
  /** Largest answer body in bytes (default: the family's own). */
  readonly maxBodyBytes?: number;
}

/** A request without the signal, which the kit adds. */
export type AsyncJobRequestV1 = Omit<ProviderTransportRequest, 'signal'>;

/** An answer read by the kit, for the family's readers. */
export interface AsyncJobAnswerV1 {
  /** The bounded JSON reading of the body (`ok` for 2xx). */
  readonly outcome: JsonResponseOutcome;
  /** Response headers with lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The clock's reading after the body was read. */
  readonly nowMs: number;
}

/** What a job operation's answer stands for: the value to decode, or the failure to return. */
export type AsyncJobReadingV1 = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly failure: NormalizedProviderFailureV3 };

/** The kit's helpers a family's job operations call. */
export interface AsyncJobOperationKitV1 {
  /** Sends one job request and reads its answer through the family's `readAnswer` (transport failures propagate). */
  ask(request: AsyncJobRequestV1): Promise<{ readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly result: ProviderAsyncJobOperationResultV1<never> }>;
  /** Runs a decoder: its value, or a failed `protocol-violation` for a `ProtocolViolationError` it throws. */
  decode<T>(run: () => T): ProviderAsyncJobOperationResultV1<T>;
  /** A failed result. */
  failed(failure: NormalizedProviderFailureV3): ProviderAsyncJobOperationResultV1<never>;
  /** A failed `protocol-violation` result. */
  protocolViolation(): ProviderAsyncJobOperationResultV1<never>;
  /** The clock's reading now. */
  nowMs(): number;
}

/**
 * The dialect of one async job family, declared once. The kit owns start (codec error: `not-accepted`, nothing sent;
 * a transport failure or unreadable answer: classified by `classifyAsyncStartError`), the bounded body reads of every
 * answer, the protocol-violation mapping of job operations, the declared `jobOperations` (exactly the operations
 * given, in the order get, list, cancel) and the suite entry.
 */
export interface AsyncJobFamilyDefinitionV1<Options extends AsyncJobFamilyOptionsV1, StartRequest extends AsyncJobRequestV1> {
  /** The family id (`<name>/v1`). */
  readonly protocolFamily: ProtocolFamily;
  /** How a host transport authenticates and which fixed headers it adds (frozen). */
  readonly transportMetadata: ProviderTransportMetadataV1;
  /** Largest answer body when the options name none. */
  readonly defaultMaxBodyBytes: number;
  /** The create request (pure), or a `CodecErrorV1` for a task the dialect cannot express. */
  readonly encodeStart: (input: ProviderAsyncJobStartInputV1) => StartRequest;
  /** What goes on the wire of a create request (default: all of it), when it carries facts for `decodeStart`. */
  readonly startWireRequest?: (request: StartRequest) => AsyncJobRequestV1;
  /** The start outcome of a read create answer. */
  readonly decodeStart: (answer: AsyncJobAnswerV1, request: StartRequest) => ProviderAsyncJobStartOutcomeV1;
  /** What a job operation's read answer stands for (an HTTP error, an error inside a 2xx, or the value). */
  readonly readAnswer: (answer: AsyncJobAnswerV1) => AsyncJobReadingV1;
  /** `get`, when the provider offers it. */
  readonly get?: (input: ProviderAsyncJobOperationInputV1, kit: AsyncJobOperationKitV1) => Promise<ProviderAsyncJobOperationResultV1<ProviderAsyncJobSnapshotV2>>;
  /** `list`, when the provider offers it. */
  readonly list?: (input: ProviderAsyncJobListOperationInputV1, kit: AsyncJobOperationKitV1) => Promise<ProviderAsyncJobOperationResultV1<ProviderAsyncJobListPageV2>>;
  /** `cancel`, when the provider offers it. */
  readonly cancel?: (input: ProviderAsyncJobOperationInputV1, kit: AsyncJobOperationKitV1) => Promise<ProviderAsyncJobOperationResultV1<null>>;
}

/** One async job family, as the kit built it from its definition. */
export interface AsyncJobFamilyV1<Options extends AsyncJobFamilyOptionsV1> {
  /** The family id. */
  readonly protocolFamily: ProtocolFamily;
  /** The family's transport metadata. */
  readonly transportMetadata: ProviderTransportMetadataV1;
  /** Creates the family's async adapter factory. */
  createAdapterFactory(options?: Options): ProviderAsyncJobAdapterFactory;
  /** Creates the family's suite entry (no direct HTTP). */
  createSuiteEntry(options?: Options): AsyncProtocolSuiteEntryV1;
}

const failed = (failure: NormalizedProviderFailureV3): ProviderAsyncJobOperationResultV1<never> => ({ status: 'failed', failure });
const protocolViolation = (): ProviderAsyncJobOperationResultV1<never> => failed({ code: 'protocol-violation', retryable: false });

function decode<T>(run: () => T, report?: DiagnosticReport): ProviderAsyncJobOperationResultV1<T> {
  try {
    return { status: 'ok', value: run() };
  } catch (error) {
    if (!isProtocolViolationError(error)) throw error;
    reportDiagnostic(report, diagnosticForError(error, 'protocol-violation'));
    return protocolViolation();
  }
}

async function start<Options extends AsyncJobFamilyOptionsV1, StartRequest extends AsyncJobRequestV1>(
  definition: AsyncJobFamilyDefinitionV1<Options, StartRequest>,
  input: ProviderAsyncJobStartInputV1,
  options: Options | undefined,
): Promise<ProviderAsyncJobStartOutcomeV1> {
  let request: StartRequest;
  try {
    request = definition.encodeStart(input);
  } catch (error) {
    if (!isCodecErrorV1(error)) throw error;
    // Nothing was sent.
    const code = error.code === 'unsupported-feature' ? 'unsupported' : 'invalid-request';
    reportDiagnostic(input.reportDiagnostic, diagnosticForError(error, code));
    return { acceptance: { state: 'not-accepted' }, responseMetadata: {}, failure: { code, retryable: false } };
  }
  const now = options?.now ?? Date.now;
  let response: ProviderTransportResponse;
  let outcome: JsonResponseOutcome;
  try {
    response = await input.transport.send({ ...(definition.startWireRequest?.(request) ?? request), signal: input.signal });
    outcome = await readJsonResponse(response, { nowMs: now(), maxBytes: options?.maxBodyBytes ?? definition.defaultMaxBodyBytes });
  } catch (error) {
    const classified = classifyAsyncStartError(error, {});
    if (classified === undefined) throw error;
    if ('failure' in classified) reportDiagnostic(input.reportDiagnostic, diagnosticForError(error, classified.failure.code));
    return classified;
  }
  return definition.decodeStart({ outcome, headers: response.headers, nowMs: now() }, request);
}

function operationKit<Options extends AsyncJobFamilyOptionsV1>(
  definition: AsyncJobFamilyDefinitionV1<Options, AsyncJobRequestV1>,
  input: ProviderAsyncJobOperationInputV1 | ProviderAsyncJobListOperationInputV1,
  options: Options | undefined,
): AsyncJobOperationKitV1 {
  const now = options?.now ?? Date.now;
  const report = input.reportDiagnostic;
  return {
    async ask(request) {
      const response = await input.transport.send({ ...request, signal: input.signal });
      let outcome: JsonResponseOutcome;
      try {
        outcome = await readJsonResponse(response, { nowMs: now(), maxBytes: options?.maxBodyBytes ?? definition.defaultMaxBodyBytes });
      } catch (error) {
        if (!isCodecErrorV1(error)) throw error;
        reportDiagnostic(report, diagnosticForError(error, 'protocol-violation'));
        return { ok: false, result: protocolViolation() };
      }
      const reading = definition.readAnswer({ outcome, headers: response.headers, nowMs: now() });
      return reading.ok ? reading : { ok: false, result: failed(reading.failure) };
    },
    decode: (run) => decode(run, report),
    failed,
    protocolViolation,
    nowMs: () => now(),
  };
}

/**
 * Builds an async job family from its dialect (see {@link AsyncJobFamilyDefinitionV1} for what the kit owns). Call
 * once per family, at module load.
 */
export function defineAsyncJobFamily<Options extends AsyncJobFamilyOptionsV1, StartRequest extends AsyncJobRequestV1>(
  definition: AsyncJobFamilyDefinitionV1<Options, StartRequest>,
): AsyncJobFamilyV1<Options> {
  const frozen = Object.freeze({ ...definition });
  const general = frozen as unknown as AsyncJobFamilyDefinitionV1<Options, AsyncJobRequestV1>;
  const jobOperations = Object.freeze((['get', 'list', 'cancel'] as const).filter((operation) => frozen[operation] !== undefined));
  const createAdapterFactory = (options?: Options): ProviderAsyncJobAdapterFactory =>
    Object.freeze({
      protocolFamily: frozen.protocolFamily,
      jobOperations,
      createAdapter: () => {
        const { get, list, cancel } = frozen;
        return Object.freeze({
          start: (input: ProviderAsyncJobStartInputV1) => start(frozen, input, options),
          ...(get === undefined ? {} : { get: (input: ProviderAsyncJobOperationInputV1) => get(input, operationKit(general, input, options)) }),
          ...(list === undefined ? {} : { list: (input: ProviderAsyncJobListOperationInputV1) => list(input, operationKit(general, input, options)) }),
          ...(cancel === undefined ? {} : { cancel: (input: ProviderAsyncJobOperationInputV1) => cancel(input, operationKit(general, input, options)) }),
        });
      },
    });
  return Object.freeze({
    protocolFamily: frozen.protocolFamily,
    transportMetadata: frozen.transportMetadata,
    createAdapterFactory,
    createSuiteEntry: (options?: Options): AsyncProtocolSuiteEntryV1 =>
      Object.freeze({
        protocolFamily: frozen.protocolFamily,
        execution: 'async' as const,
        transportMetadata: frozen.transportMetadata,
        asyncAdapterFactory: createAdapterFactory(options),
        directHttp: false,
      }),
  });
}
