import { CONTRACT_BOUNDS_V1 as BOUNDS, type TokensByModalityV3 } from '@tokenforge/model-protocol';
import { createWireReaders, isWireRecord } from '../../codec-kit/wire-readers.js';
import { readModalityTokenCounts, readServiceTier } from '../../codec-kit/usage-detail-readers.js';

/**
 * Tolerant readers of what a Gemini generateContent endpoint sends. They read only the fields this family
 * uses, ignore every other key, and throw {@link ProtocolViolationError} (`invalid-event`) when a field they
 * read is mistyped or out of range (fact sheet §4.7: almost nothing is required). Hand-written rather than a
 * schema library: they run once per stream chunk.
 */

/** One `partialArgs` entry of a Vertex streamed function call (fact sheet §4.5). */
export interface GeminiPartialArgWire {
  /** JSON path of the value, `$.a.b[0]` style. */
  readonly jsonPath: string;
  /** The value, or the next fragment of a string value. */
  readonly value:
    | { readonly type: 'string'; readonly text: string }
    | { readonly type: 'number'; readonly number: number }
    | { readonly type: 'boolean'; readonly boolean: boolean }
    | { readonly type: 'null' }
    | { readonly type: 'none' };
  /** True when more fragments of this string value follow. */
  readonly willContinue: boolean;
}

/** A `functionCall` part, complete or one piece of a streamed call. */
export interface GeminiFunctionCallPartWire {
  /** Discriminator. */
  readonly kind: 'function-call';
  /** The tool name (absent on continuation pieces). */
  readonly name: string | undefined;
  /** The whole argument object (Gemini API); absent for zero-argument calls and streamed pieces. */
  readonly args: Readonly<Record<string, unknown>> | undefined;
  /** The provider's call id, when it sent one. */
  readonly id: string | undefined;
  /** Streamed argument pieces (Vertex `streamFunctionCallArguments`). */
  readonly partialArgs: readonly GeminiPartialArgWire[] | undefined;
  /** True when more pieces of this call follow. */
  readonly willContinue: boolean;
  /** The part's `thoughtSignature`. */
  readonly signature: string | undefined;
}

/** A `text` part (visible text, or a thought when `thought` is true). */
export interface GeminiTextPartWire {
  /** Discriminator. */
  readonly kind: 'text';
  /** The text, possibly empty. */
  readonly text: string;
  /** The part's `thought` flag. */
  readonly thought: boolean;
  /** The part's `thoughtSignature`. */
  readonly signature: string | undefined;
}

/** A part of a kind this family knows and deliberately does not map (see {@link GEMINI_IGNORED_PART_KINDS}). */
export interface GeminiIgnoredPartWire {
  /** Discriminator. */
  readonly kind: 'ignored';
  /** The part's `thoughtSignature`, kept so that it is not lost. */
  readonly signature: string | undefined;
}

/** One response part. */
export type GeminiPartWire = GeminiTextPartWire | GeminiFunctionCallPartWire | GeminiIgnoredPartWire;

/**
 * Response part kinds that are known and harmless: they are read past, never mapped. Code execution and
 * server-side tool parts only appear when such tools are enabled, which this family never asks for; media
 * output only appears when media modalities are requested, which it never does; transcriptions are
 * side information.
 */
export const GEMINI_IGNORED_PART_KINDS = [
  'executableCode',
  'codeExecutionResult',
  'toolCall',
  'toolResponse',
  'audioTranscription',
  'inlineData',
  'fileData',
] as const;

/** Raw usage counts as sent (absent when not sent). */
export interface GeminiUsageWire {
  /** All input tokens, cached content included. */
  readonly promptTokenCount?: number;
  /** The cached part of the input. */
  readonly cachedContentTokenCount?: number;
  /** Visible output tokens, thoughts excluded. */
  readonly candidatesTokenCount?: number;
  /** Reasoning tokens. */
  readonly thoughtsTokenCount?: number;
  /** Input tokens from server-side tool results. */
  readonly toolUsePromptTokenCount?: number;
  /** Prompt + candidates + tool-use prompt + thoughts. */
  readonly totalTokenCount?: number;
  /** `promptTokensDetails` by modality (unknown modalities and unreadable entries left out). */
  readonly promptTokensByModality?: TokensByModalityV3;
  /** `candidatesTokensDetails` by modality. */
  readonly candidatesTokensByModality?: TokensByModalityV3;
  /** `cacheTokensDetails` by modality (read, but the normalized usage has no place for it). */
  readonly cacheTokensByModality?: TokensByModalityV3;
  /** `serviceTier` (Gemini API), when it is a readable name. */
  readonly serviceTier?: string;
}

/** The details {@link GeminiUsageWire} reads beside its counts; a later chunk's detail replaces an earlier one. */
export const GEMINI_USAGE_DETAIL_FIELDS = ['promptTokensByModality', 'candidatesTokensByModality', 'cacheTokensByModality', 'serviceTier'] as const satisfies readonly (keyof GeminiUsageWire)[];

/** The counts {@link GeminiUsageWire} reads, in a fixed order. */
export const GEMINI_USAGE_COUNT_FIELDS = [
  'promptTokenCount',
  'cachedContentTokenCount',
  'candidatesTokenCount',
  'thoughtsTokenCount',
  'toolUsePromptTokenCount',
  'totalTokenCount',
] as const satisfies readonly (keyof GeminiUsageWire)[];

/** A Google error object `{code, message, status, details}` (only the fields read). */
export interface GeminiErrorWire {
  /** The HTTP status the error stands for, when sent. */
  readonly code: number | undefined;
  /** The canonical status name (`RESOURCE_EXHAUSTED`, ...), when sent. */
  readonly status: string | undefined;
  /** `RetryInfo.retryDelay` in milliseconds, when a detail carried a readable one. */
  readonly retryDelayMs: number | undefined;
  /** `ErrorInfo.reason` (`API_KEY_INVALID`, ...), when sent. */
  readonly reason: string | undefined;
  /** Whether `message` is Google's over-long-prompt refusal (`The input token count (N) exceeds the maximum …`). */
  readonly inputTooLong?: boolean;
}

/** One response (or one stream chunk), read. */
export interface GeminiResponseWire {
  /** A Google error object in place of a response. */
  readonly error: GeminiErrorWire | undefined;
  /** The parts of the only candidate (empty when it had none). */
  readonly parts: readonly GeminiPartWire[];
  /** The candidate's finish reason, when sent. */
  readonly finishReason: string | undefined;
  /** `promptFeedback.blockReason`, when the prompt was blocked. */
  readonly blockReason: string | undefined;
  /** The usage counts, when `usageMetadata` was present (possibly with no counts, as on Vertex). */
  readonly usage: GeminiUsageWire | undefined;
  /** `modelVersion`, when sent. */
  readonly modelVersion: string | undefined;
  /** `responseId`, when sent. */
  readonly responseId: string | undefined;
}

const KNOWN_ENUM = /^[A-Z0-9_]{1,64}$/;
const MAX_IDENTIFIER_LENGTH = BOUNDS.toolCallIdMaxLength;

/** The readers of this family's wire JSON (messages start with `gemini-generate-content`). */
export const GEMINI_GENERATE_CONTENT_WIRE = createWireReaders({ family: 'gemini-generate-content' });
const wire = GEMINI_GENERATE_CONTENT_WIRE;
const { violation } = wire;

/** A plain JSON object (not an array, not null). */
export const isJsonObject: (value: unknown) => value is Record<string, unknown> = isWireRecord;

function optionalEnum(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw violation(`${field} is not a string`);
  if (!KNOWN_ENUM.test(value)) throw violation(`${field} is not an enum value`);
  return value;
}

function optionalBoolean(value: unknown, field: string): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw violation(`${field} is not a boolean`);
  return value;
}

function optionalSignature(value: unknown): string | undefined {
  const text = wire.optionalString(value, 'part', 'thoughtSignature');
  return text === undefined || text.length === 0 ? undefined : text;
}

/** Documented part members that carry no content of their own. */
const GEMINI_PART_METADATA_KEYS: ReadonlySet<string> = new Set(['thought', 'thoughtSignature', 'partMetadata', 'videoMetadata', 'mediaResolution']);

const DATA_KEYS = ['text', 'functionCall', 'functionResponse', ...GEMINI_IGNORED_PART_KINDS] as const;

/**
 * Reads one response part. A part carries at most one data key; a bare signature reads as empty text; a part
 * with no data key and nothing but documented metadata (the empty part `{}`) reads as ignored.
 */
export function readGeminiPart(value: unknown): GeminiPartWire {
  if (!isJsonObject(value)) throw violation('part is not an object');
  let dataKey: (typeof DATA_KEYS)[number] | undefined;
  for (const key of DATA_KEYS) {
    if (value[key] === undefined || value[key] === null) continue;
    if (dataKey !== undefined) throw violation('part carries more than one data key');
    dataKey = key;
  }
  const signature = optionalSignature(value.thoughtSignature);
  const thought = optionalBoolean(value.thought, 'part.thought');
  if (dataKey === undefined) {
    // `{thoughtSignature}` alone, or `{thought: true}` alone: an empty text part.
    if (signature !== undefined || value.thought !== undefined) return { kind: 'text', text: '', thought, signature };
    // An empty part `{}` (or one with only documented metadata) is sent beside real parts: it says nothing.
    if (Object.keys(value).every((key) => value[key] === undefined || value[key] === null || GEMINI_PART_METADATA_KEYS.has(key))) {
      return { kind: 'ignored', signature: undefined };
    }
    throw violation('part has no known data key');
  }
  switch (dataKey) {
    case 'text': {
      const text = value.text;
      if (typeof text !== 'string') throw violation('part.text is not a string');
      return { kind: 'text', text, thought, signature };
    }
    case 'functionCall':
      return readFunctionCall(value.functionCall, signature);
    case 'functionResponse':
      throw violation('a model response cannot carry a functionResponse part');
    default:
      if (!isJsonObject(value[dataKey])) throw violation(`part.${dataKey} is not an object`);
      return { kind: 'ignored', signature };
  }
}

function readFunctionCall(value: unknown, signature: string | undefined): GeminiFunctionCallPartWire {
  if (!isJsonObject(value)) throw violation('part.functionCall is not an object');
  const name = wire.optionalString(value.name, 'functionCall', 'name');
  if (name !== undefined && (name.length === 0 || name.length > BOUNDS.toolNameMaxLength)) throw violation('functionCall.name is empty or too long');
  const id = wire.optionalString(value.id, 'functionCall', 'id');
  if (id !== undefined && (id.length === 0 || id.length > MAX_IDENTIFIER_LENGTH)) {
    throw violation('functionCall.id is empty or too long');
  }
  let args: Record<string, unknown> | undefined;
  if (value.args !== undefined && value.args !== null) {
    if (!isJsonObject(value.args)) throw violation('functionCall.args is not an object');
    args = value.args;
  }
  let partialArgs: GeminiPartialArgWire[] | undefined;
  if (value.partialArgs !== undefined && value.partialArgs !== null) {
    if (!Array.isArray(value.partialArgs)) throw violation('functionCall.partialArgs is not an array');
    partialArgs = value.partialArgs.map(readPartialArg);
  }
  return {
    kind: 'function-call',
    name,
    args,
    id,
    partialArgs,
    willContinue: optionalBoolean(value.willContinue, 'functionCall.willContinue'),
    signature,
  };
}

function readPartialArg(value: unknown): GeminiPartialArgWire {
  if (!isJsonObject(value)) throw violation('partialArgs entry is not an object');
  const jsonPath = value.jsonPath;
  if (typeof jsonPath !== 'string' || jsonPath.length === 0 || jsonPath.length > 4096) {
    throw violation('partialArgs.jsonPath is not a path');
  }
  const values: GeminiPartialArgWire['value'][] = [];
  if (value.stringValue !== undefined) {
    if (typeof value.stringValue !== 'string') throw violation('partialArgs.stringValue is not a string');
    values.push({ type: 'string', text: value.stringValue });
  }
  if (value.numberValue !== undefined) {
    if (typeof value.numberValue !== 'number' || !Number.isFinite(value.numberValue)) {
      throw violation('partialArgs.numberValue is not a finite number');
    }
    values.push({ type: 'number', number: value.numberValue });
  }
  if (value.boolValue !== undefined) {
    if (typeof value.boolValue !== 'boolean') throw violation('partialArgs.boolValue is not a boolean');
    values.push({ type: 'boolean', boolean: value.boolValue });
  }
  if (value.nullValue !== undefined) values.push({ type: 'null' });
  if (values.length > 1) throw violation('partialArgs entry carries more than one value');
  return {
    jsonPath,
    value: values[0] ?? { type: 'none' },
    willContinue: optionalBoolean(value.willContinue, 'partialArgs.willContinue'),
  };
}

/** Reads `usageMetadata`: every count is optional (Vertex sends count-less usage on intermediate chunks). */
export function readGeminiUsage(value: unknown): GeminiUsageWire {
  if (!isJsonObject(value)) throw violation('usageMetadata is not an object');
  const usage: { -readonly [K in keyof GeminiUsageWire]: GeminiUsageWire[K] } = {};
  for (const field of GEMINI_USAGE_COUNT_FIELDS) {
    const count = wire.optionalCount(value[field], 'usageMetadata', field);
    if (count !== undefined) usage[field] = count;
  }
  // The details only add information: a malformed list or tier is left out, never a violation.
  const prompt = readModalityTokenCounts(value.promptTokensDetails);
  if (prompt !== undefined) usage.promptTokensByModality = prompt;
  const candidates = readModalityTokenCounts(value.candidatesTokensDetails);
  if (candidates !== undefined) usage.candidatesTokensByModality = candidates;
  const cache = readModalityTokenCounts(value.cacheTokensDetails);
  if (cache !== undefined) usage.cacheTokensByModality = cache;
  const serviceTier = readServiceTier(value.serviceTier);
  if (serviceTier !== undefined) usage.serviceTier = serviceTier;
  return usage;
}

const RETRY_DELAY = /^(\d{1,9})(?:\.(\d{1,9}))?s$/;

/** Reads a Google error object. Never throws: an odd field is left out. */
/**
 * Google refuses a prompt over the model's input limit with 400 `INVALID_ARGUMENT` and no distinct reason: only the
 * message says it (`The input token count (1048577) exceeds the maximum number of tokens allowed (1048576).`). That
 * sentence is tested; the message is never kept.
 */
const INPUT_TOO_LONG = /input token count\b.*\bexceeds the maximum number of tokens/i;

export function readGeminiError(value: unknown): GeminiErrorWire {
  const error = isJsonObject(value) ? value : {};
  const code = typeof error.code === 'number' && Number.isInteger(error.code) ? error.code : undefined;
  const status = typeof error.status === 'string' && KNOWN_ENUM.test(error.status) ? error.status : undefined;
  let retryDelayMs: number | undefined;
  let reason: string | undefined;
  if (Array.isArray(error.details)) {
    for (const detail of error.details.slice(0, 32)) {
      if (!isJsonObject(detail) || typeof detail['@type'] !== 'string') continue;
      const type = detail['@type'];
      if (type.endsWith('google.rpc.RetryInfo') && typeof detail.retryDelay === 'string') {
        const match = RETRY_DELAY.exec(detail.retryDelay);
        if (match !== null) {
          const fraction = (match[2] ?? '').padEnd(3, '0').slice(0, 3);
          retryDelayMs = Math.min(Number(match[1]) * 1000 + Number(fraction), 86_400_000);
        }
      } else if (type.endsWith('google.rpc.ErrorInfo') && typeof detail.reason === 'string' && KNOWN_ENUM.test(detail.reason)) {
        reason = detail.reason;
      }
    }
  }
  const inputTooLong = typeof error.message === 'string' && INPUT_TOO_LONG.test(error.message);
  return { code, status, retryDelayMs, reason, ...(inputTooLong ? { inputTooLong } : {}) };
}

/**
 * Reads one `GenerateContentResponse` (a whole body or one stream chunk). More than one candidate is a
 * violation: this family never asks for more than one (`candidateCount` is never sent), so a second
 * candidate means the response is not an answer to our request.
 */
export function readGeminiResponse(value: unknown): GeminiResponseWire {
  if (!isJsonObject(value)) throw violation('response is not a JSON object');
  if (value.error !== undefined && value.error !== null) {
    return {
      error: readGeminiError(value.error),
      parts: [],
      finishReason: undefined,
      blockReason: undefined,
      usage: undefined,
      modelVersion: undefined,
      responseId: undefined,
    };
  }
  let parts: GeminiPartWire[] = [];
  let finishReason: string | undefined;
  if (value.candidates !== undefined && value.candidates !== null) {
    if (!Array.isArray(value.candidates)) throw violation('candidates is not an array');
    if (value.candidates.length > 1) throw violation('response carries more than one candidate');
    const candidate: unknown = value.candidates[0];
    if (candidate !== undefined) {
      if (!isJsonObject(candidate)) throw violation('candidate is not an object');
      if (candidate.index !== undefined && candidate.index !== null && candidate.index !== 0) {
        throw violation('candidate index is not 0');
      }
      finishReason = optionalEnum(candidate.finishReason, 'candidate.finishReason');
      const content = candidate.content;
      if (content !== undefined && content !== null) {
        if (!isJsonObject(content)) throw violation('candidate.content is not an object');
        if (content.parts !== undefined && content.parts !== null) {
          if (!Array.isArray(content.parts)) throw violation('content.parts is not an array');
          parts = content.parts.map(readGeminiPart);
        }
      }
    }
  }
  let blockReason: string | undefined;
  if (value.promptFeedback !== undefined && value.promptFeedback !== null) {
    if (!isJsonObject(value.promptFeedback)) throw violation('promptFeedback is not an object');
    blockReason = optionalEnum(value.promptFeedback.blockReason, 'promptFeedback.blockReason');
  }
  const usage = value.usageMetadata === undefined || value.usageMetadata === null ? undefined : readGeminiUsage(value.usageMetadata);
  const modelVersion = wire.optionalString(value.modelVersion, 'body', 'modelVersion');
  const responseId = wire.optionalString(value.responseId, 'body', 'responseId');
  return {
    error: undefined,
    parts,
    finishReason,
    blockReason,
    usage,
    modelVersion: modelVersion !== undefined && modelVersion.length > 0 && modelVersion.length <= BOUNDS.providerIdentifierMaxLength ? modelVersion : undefined,
    responseId: responseId !== undefined && responseId.length > 0 && responseId.length <= BOUNDS.providerIdentifierMaxLength ? responseId : undefined,
  };
}
