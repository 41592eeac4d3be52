import {
  CONTRACT_BOUNDS_V1,
  isCodecErrorV1,
  type AdapterStreamPartV1,
  type AdapterTerminalOutcomeV4,
  type NormalizedProviderFailureV3,
  type ProtocolFamily,
  type ProviderAdapterExecuteInputV1,
  type ProviderAdapterExecutionV1,
  type ProviderAdapterFactory,
  type ProviderResponseMetadataV3,
  type ProviderTransportMetadataV1,
  type ProviderTransportRequest,
  type ProviderTransportResponse,
  type TokenCountTaskV4,
} from '@tokenforge/model-protocol';
import type { ProtocolSuiteCodecsV1, SyncProtocolSuiteEntryV1 } from '../suite/protocol-suite-entry-v1.js';
import { finishedExecution } from './finished-execution.js';
import { readJsonResponse } from './json-response.js';
import { releaseBody } from './read-body.js';
import { isStreamContentTypeAccepted, SSE_STREAM_MEDIA_TYPES } from './stream-content-type.js';
import { diagnosticForError, reportDiagnostic } from './diagnostic-for-error.js';
import { readRateLimitHeaders, type RateLimitHeaderDialectV1 } from './rate-limit-headers.js';
import { applyStructuredOutputStrategy, structuredOutputParts, structuredOutputTerminal } from './structured-output-emulation.js';
import { terminalForError } from './terminal-for-error.js';

/** Options every HTTP family's adapter factory takes. */
export interface HttpFamilyOptionsV1 {
  /** Clock for HTTP-date `Retry-After` hints, in epoch milliseconds (default `Date.now`). */
  readonly now?: () => number;
}

/** What a family's hooks see of one call after the response head arrived (the body goes to the hook alone). */
export interface HttpFamilyResponseContextV1<Options> {
  /** The engine's input of this execution. */
  readonly input: ProviderAdapterExecuteInputV1;
  /** The options the factory was created with. */
  readonly options: Options | undefined;
  /** The HTTP status. */
  readonly status: number;
  /** Response headers with lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The clock's reading just after the response head arrived. */
  readonly nowMs: number;
}

/** A non-2xx answer, for the family's error mapper. */
export interface HttpFamilyErrorAnswerV1 {
  /** The HTTP status. */
  readonly status: number;
  /** Response headers with lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed error body, or `undefined` when it was empty or not JSON. */
  readonly errorBody: unknown;
  /** The clock's reading just after the response head arrived. */
  readonly nowMs: number;
}

/** What a family's sync decoder returns. */
export interface HttpFamilyDecodedV1 {
  /** The terminal outcome. */
  readonly terminal: AdapterTerminalOutcomeV4;
  /** The model the provider reported serving, when the body names one. */
  readonly providerModel?: string | undefined;
}

/**
 * The dialect of one sync HTTP family, declared once: the kit's adapter owns everything around it.
 *
 * The kit's `execute()`: apply the task's structured-output strategy (`applyStructuredOutputStrategy`; a
 * `forced-tool` answer is read back as text), encode (a `CodecErrorV1` is a failed `unsupported` / `invalid-request` terminal with
 * acceptance `not-accepted`, nothing sent); send with the engine's signal; a 2xx stream task goes to
 * `decodeStream`; any other answer is read by the kit's bounded JSON reader (an unreadable body, or an abort while
 * reading, is a failed terminal with acceptance `unknown`); a 2xx body goes to `decodeResponse` (a protocol
 * violation it throws is a failed terminal with acceptance `unknown`); a non-2xx body goes to `mapHttpError`, with
 * acceptance `unknown` for 5xx (the provider may have processed, and billed, the request before failing) and
 * `not-accepted` otherwise. A stream task always gets a `stream` execution. A transport failure before a response
 * head rejects, as the adapter contract asks.
 */
export interface HttpFamilyDefinitionV1<Options extends HttpFamilyOptionsV1> {
  /** The family id (`<name>/v1`). */
  readonly protocolFamily: ProtocolFamily;
  /** How a host transport authenticates and which fixed headers it adds (frozen). */
  readonly transportMetadata: ProviderTransportMetadataV1;
  /**
   * Response headers that may carry the provider's request id, first non-empty one wins (empty: the family reports
   * none).
   */
  readonly requestIdHeaders: readonly string[];
  /**
   * A request id longer than the contract allows: `truncate` keeps its head (default), `drop` reports none (for a
   * provider whose ids are never that long, so a longer one is not an id).
   */
  readonly overlongRequestId?: 'truncate' | 'drop';
  /**
   * Where the dialect's response head puts the provider's rate-limit facts (header names lower-case). The kit reads
   * them, with `retry-after-ms` / `retry-after`, from every response head (2xx and refusals alike) into the
   * metadata's `rateLimits`, resets as milliseconds from the head's arrival. Unreadable values are left out. A
   * family whose provider documents no such headers leaves it out: its metadata then carries only a
   * `retry-after` wait, when one was sent.
   */
  readonly rateLimitHeaders?: RateLimitHeaderDialectV1;
  /** Refuses malformed options when the factory is created (not on the first request); throws `CodecErrorV1`. */
  readonly checkOptions?: (options: Options | undefined) => void;
  /** The request to send (pure), or a `CodecErrorV1` for a task the dialect cannot express. */
  readonly encodeRequest: (input: ProviderAdapterExecuteInputV1, options: Options | undefined) => Omit<ProviderTransportRequest, 'signal'>;
  /**
   * The counting request of a `token-count` task (pure), or a `CodecErrorV1`. A family without it cannot count:
   * its `encodeRequest` gets the task and refuses it as every other kind it does not carry.
   */
  readonly encodeCountRequest?: (
    task: TokenCountTaskV4,
    target: ProviderAdapterExecuteInputV1['target'],
    options: Options | undefined,
  ) => Omit<ProviderTransportRequest, 'signal'>;
  /** The terminal of a parsed 2xx counting body (a `token-count` result); may throw a `ProtocolViolationError`. */
  readonly decodeCountResponse?: (body: unknown, context: HttpFamilyResponseContextV1<Options>) => HttpFamilyDecodedV1;
  /** Largest sync body in bytes (`undefined`: the kit's default). */
  readonly maxBodyBytes?: (options: Options | undefined) => number | undefined;
  /** The terminal of a parsed 2xx body; may throw a `ProtocolViolationError`. */
  readonly decodeResponse: (body: unknown, context: HttpFamilyResponseContextV1<Options>) => HttpFamilyDecodedV1;
  /** The parts of a 2xx stream over its body (families without streaming leave it out: their tasks never stream). */
  readonly decodeStream?: (body: AsyncIterable<Uint8Array>, context: HttpFamilyResponseContextV1<Options>) => AsyncIterable<AdapterStreamPartV1>;
  /**
   * The media types a 2xx stream response may carry (default {@link SSE_STREAM_MEDIA_TYPES}). Any other
   * `content-type` (an HTML captive portal or WAF page) is not the family's format: the kit releases the body and
   * ends the execution as a failed `protocol-violation` with acceptance `unknown`, not retryable, exactly as an
   * unreadable sync body.
   */
  readonly streamMediaTypes?: readonly string[];
  /** The failure a non-2xx answer stands for. */
  readonly mapHttpError: (answer: HttpFamilyErrorAnswerV1) => NormalizedProviderFailureV3;
}

/** One sync family, as the kit built it from its definition. */
export interface HttpFamilyV1<Options extends HttpFamilyOptionsV1> {
  /** The family id. */
  readonly protocolFamily: ProtocolFamily;
  /** The family's transport metadata. */
  readonly transportMetadata: ProviderTransportMetadataV1;
  /** Creates the family's adapter factory. */
  createAdapterFactory(options?: Options): ProviderAdapterFactory;
  /** Creates the family's suite entry (direct HTTP exactly when codecs are given). */
  createSuiteEntry(options?: Options, codecs?: ProtocolSuiteCodecsV1): SyncProtocolSuiteEntryV1;
}

const PROVIDER_IDENTIFIER_MAX = CONTRACT_BOUNDS_V1.providerIdentifierMaxLength;

/** A dialect with no rate-limit headers: only the `retry-after-ms` / `retry-after` wait is read. */
const NO_RATE_LIMIT_HEADERS: RateLimitHeaderDialectV1 = Object.freeze({ reset: 'duration' });

function responseMetadataOf(
  definition: HttpFamilyDefinitionV1<never>,
  response: ProviderTransportResponse,
  nowMs: number,
  providerModel?: string,
): ProviderResponseMetadataV3 {
  let requestId: string | undefined;
  for (const name of definition.requestIdHeaders) {
    const value = response.headers[name];
    if (value === undefined || value.length === 0) continue;
    if (value.length <= PROVIDER_IDENTIFIER_MAX) requestId = value;
    else if (definition.overlongRequestId !== 'drop') requestId = value.slice(0, PROVIDER_IDENTIFIER_MAX);
    break;
  }
  const rateLimits = readRateLimitHeaders(response.headers, definition.rateLimitHeaders ?? NO_RATE_LIMIT_HEADERS, nowMs);
  return {
    ...(requestId === undefined ? {} : { providerRequestId: requestId }),
    ...(providerModel === undefined ? {} : { providerModel }),
    ...(rateLimits === undefined ? {} : { rateLimits }),
  };
}

async function execute<Options extends HttpFamilyOptionsV1>(
  definition: HttpFamilyDefinitionV1<Options>,
  input: ProviderAdapterExecuteInputV1,
  options: Options | undefined,
): Promise<ProviderAdapterExecutionV1> {
  const stream = definition.decodeStream !== undefined && input.task.kind === 'chat' && input.task.stream;
  // A token-count task goes to the family's counting endpoint when it declares one (never to its generation path).
  const { encodeCountRequest, decodeCountResponse } = definition;
  const countTask = input.task.kind === 'token-count' ? input.task : undefined;
  const counting = countTask !== undefined && encodeCountRequest !== undefined && decodeCountResponse !== undefined;
  let request: Omit<ProviderTransportRequest, 'signal'>;
  // A JSON-schema request reaches the family encoder as the target's strategy shaped it (see structured-output-emulation).
  let forcedTool = false;
  try {
    if (counting) request = encodeCountRequest(countTask, input.target, options);
    else {
      const emulation = applyStructuredOutputStrategy(input.task, input.target.capability);
      forcedTool = emulation.strategy === 'forced-tool';
      request = definition.encodeRequest(emulation.task === input.task ? input : { ...input, task: emulation.task }, options);
    }
  } catch (error) {
    if (!isCodecErrorV1(error)) throw error;
    // Nothing was sent: the task asks for something this dialect cannot express faithfully.
    const code = error.code === 'unsupported-feature' ? 'unsupported' : 'invalid-request';
    reportDiagnostic(input.reportDiagnostic, diagnosticForError(error, code));
    return finishedExecution(stream, { state: 'not-accepted' }, {}, { status: 'failed', failure: { code, retryable: false } });
  }
  const response = await input.transport.send({ ...request, signal: input.signal });
  const nowMs = (options?.now ?? Date.now)();
  const metadata = (providerModel?: string) => responseMetadataOf(definition as HttpFamilyDefinitionV1<never>, response, nowMs, providerModel);
  const context: HttpFamilyResponseContextV1<Options> = { input, options, status: response.status, headers: response.headers, nowMs };
  if (stream && definition.decodeStream !== undefined && response.status >= 200 && response.status <= 299) {
    if (!isStreamContentTypeAccepted(response.headers['content-type'], definition.streamMediaTypes ?? SSE_STREAM_MEDIA_TYPES)) {
      await releaseBody(response.body);
      reportDiagnostic(input.reportDiagnostic, {
        code: 'protocol-violation',
        rule: 'the stream answer is not in the family\'s stream format',
        location: 'content-type header',
        expected: (definition.streamMediaTypes ?? SSE_STREAM_MEDIA_TYPES).join(' or '),
      });
      return finishedExecution(stream, { state: 'unknown' }, metadata(), { status: 'failed', failure: { code: 'protocol-violation', retryable: false } });
    }
    const parts = definition.decodeStream(response.body, context);
    return { kind: 'stream', acceptance: { state: 'accepted' }, responseMetadata: metadata(), parts: forcedTool ? structuredOutputParts(parts) : parts };
  }
  let outcome: Awaited<ReturnType<typeof readJsonResponse>>;
  try {
    const maxBytes = definition.maxBodyBytes?.(options);
    outcome = await readJsonResponse(response, { nowMs, ...(maxBytes === undefined ? {} : { maxBytes }) });
  } catch (error) {
    const terminal = terminalForError(error, { signal: input.signal, reportDiagnostic: input.reportDiagnostic });
    if (terminal === undefined) throw error;
    return finishedExecution(stream, { state: 'unknown' }, metadata(), terminal);
  }
  if (outcome.ok) {
    let decoded: HttpFamilyDecodedV1;
    try {
      decoded = counting ? decodeCountResponse(outcome.value, context) : definition.decodeResponse(outcome.value, context);
    } catch (error) {
      const terminal = terminalForError(error, { signal: input.signal, reportDiagnostic: input.reportDiagnostic });
      if (terminal === undefined) throw error;
      return finishedExecution(stream, { state: 'unknown' }, metadata(), terminal);
    }
    return finishedExecution(stream, { state: 'accepted' }, metadata(decoded.providerModel), forcedTool ? structuredOutputTerminal(decoded.terminal) : decoded.terminal);
  }
  const failure = definition.mapHttpError({ status: outcome.status, headers: response.headers, errorBody: outcome.errorBody, nowMs });
  // A 5xx may have been processed (and billed) before the server failed; any other refusal was definitive.
  return finishedExecution(stream, { state: outcome.status >= 500 ? 'unknown' : 'not-accepted' }, metadata(), { status: 'failed', failure });
}

/**
 * Builds a sync HTTP family from its dialect (see {@link HttpFamilyDefinitionV1} for what the kit owns). Call once
 * per family, at module load.
 */
export function defineHttpFamily<Options extends HttpFamilyOptionsV1>(definition: HttpFamilyDefinitionV1<Options>): HttpFamilyV1<Options> {
  const frozen = Object.freeze({ ...definition });
  const createAdapterFactory = (options?: Options): ProviderAdapterFactory => {
    frozen.checkOptions?.(options);
    return Object.freeze({
      protocolFamily: frozen.protocolFamily,
      createAdapter: () => Object.freeze({ execute: (input: ProviderAdapterExecuteInputV1) => execute(frozen, input, options) }),
    });
  };
  return Object.freeze({
    protocolFamily: frozen.protocolFamily,
    transportMetadata: frozen.transportMetadata,
    createAdapterFactory,
    createSuiteEntry: (options?: Options, codecs?: ProtocolSuiteCodecsV1): SyncProtocolSuiteEntryV1 =>
      Object.freeze({
        protocolFamily: frozen.protocolFamily,
        execution: 'sync' as const,
        transportMetadata: frozen.transportMetadata,
        adapterFactory: createAdapterFactory(options),
        directHttp: codecs !== undefined,
        ...(codecs === undefined ? {} : { codecs: Object.freeze({ ingress: codecs.ingress, egress: codecs.egress }) }),
        ...(frozen.rateLimitHeaders === undefined ? {} : { rateLimitHeaders: frozen.rateLimitHeaders }),
      }),
  });
}
