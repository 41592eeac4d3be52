import {
  adapterTerminalOutcomeSchema,
  CONTRACT_BOUNDS_V1 as BOUNDS,
  normalizedStreamEventV1Schema,
  providerResponseMetadataSchema,
  taskEnvelopeV2Schema,
} from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { checkStreamEvent } from './check-stream-event.js';
import { fastParseResponseMetadata } from './fast-parse-execution-facts.js';
import { fastParseChatTask } from './fast-parse-chat-task.js';
import { fastParseTerminal } from './fast-parse-terminal.js';
import { editAt, type Loose } from '../../test-support/schema-arbitraries.js';

/*
 * Every contract bound the fast checks share with the schemas, tried on both sides: the value at the bound must be
 * accepted by the schema AND decided by the fast check, the value one step beyond it refused by both. A schema or
 * a fast check that tightens a bound (the fast path then accepts what the schema refuses, or refuses what it
 * accepts) fails here, and so does one that loosens it.
 */

interface BoundCase {
  readonly label: string;
  readonly path: readonly (string | number)[];
  readonly key: string;
  /** The value at the bound (valid). */
  readonly atBound: unknown;
  /** The value one step beyond the bound (invalid). */
  readonly beyond: unknown;
}

interface Subject {
  readonly name: string;
  readonly base: () => Loose;
  readonly fast: (value: unknown) => unknown;
  readonly schema: { safeParse(value: unknown): { readonly success: boolean; readonly data?: unknown } };
  readonly cases: readonly BoundCase[];
}

const text = (length: number): string => 'x'.repeat(length);
const name = (length: number): string => `a${'b'.repeat(length - 1)}`;

const chatTask = (): Loose => ({
  kind: 'chat',
  idempotencyKey: 'req-1',
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'hi', cacheControl: { type: 'ephemeral', ttlSeconds: 60 } },
        { type: 'document', source: { type: 'base64', mediaType: 'application/pdf', data: 'JVBER' }, title: 't' },
        { type: 'image', source: { type: 'url', url: 'https://x.test/a.png' } },
      ],
    },
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'weather', argumentsText: '{}' }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'weather', content: [{ type: 'text', text: 'sunny' }] }] },
  ],
  tools: [{ name: 'weather', description: 'd', inputSchema: { type: 'object' } }],
  toolChoice: { type: 'tool', toolName: 'weather' },
  responseFormat: { type: 'json', schema: { type: 'object' }, name: 'answer' },
  sampling: { temperature: 1, topP: 0.5, frequencyPenalty: 0, presencePenalty: 0 },
  stopSequences: ['END'],
  caching: { promptCacheKey: 'k' },
  stream: false,
});

const SUBJECTS: readonly Subject[] = [
  {
    name: 'chat task',
    base: chatTask,
    fast: fastParseChatTask,
    schema: taskEnvelopeV2Schema,
    cases: [
      { label: 'idempotency key', path: [], key: 'idempotencyKey', atBound: text(BOUNDS.idempotencyKeyMaxLength), beyond: text(BOUNDS.idempotencyKeyMaxLength + 1) },
      { label: 'cache ttl', path: ['messages', 0, 'content', 0, 'cacheControl'], key: 'ttlSeconds', atBound: BOUNDS.cacheTtlSecondsMax, beyond: BOUNDS.cacheTtlSecondsMax + 1 },
      { label: 'document title', path: ['messages', 0, 'content', 1], key: 'title', atBound: text(BOUNDS.documentTitleMaxLength), beyond: text(BOUNDS.documentTitleMaxLength + 1) },
      { label: 'media type, longest', path: ['messages', 0, 'content', 1, 'source'], key: 'mediaType', atBound: text(BOUNDS.mediaTypeMaxLength), beyond: text(BOUNDS.mediaTypeMaxLength + 1) },
      { label: 'media type, shortest', path: ['messages', 0, 'content', 1, 'source'], key: 'mediaType', atBound: text(BOUNDS.mediaTypeMinLength), beyond: text(BOUNDS.mediaTypeMinLength - 1) },
      { label: 'media url', path: ['messages', 0, 'content', 2, 'source'], key: 'url', atBound: text(BOUNDS.mediaUrlMaxLength), beyond: text(BOUNDS.mediaUrlMaxLength + 1) },
      { label: 'tool call id', path: ['messages', 1, 'content', 0], key: 'toolCallId', atBound: text(BOUNDS.toolCallIdMaxLength), beyond: text(BOUNDS.toolCallIdMaxLength + 1) },
      { label: 'tool call name', path: ['messages', 1, 'content', 0], key: 'toolName', atBound: text(BOUNDS.toolNameMaxLength), beyond: text(BOUNDS.toolNameMaxLength + 1) },
      { label: 'tool result id', path: ['messages', 2, 'content', 0], key: 'toolCallId', atBound: text(BOUNDS.toolCallIdMaxLength), beyond: text(BOUNDS.toolCallIdMaxLength + 1) },
      { label: 'tool result name', path: ['messages', 2, 'content', 0], key: 'toolName', atBound: text(BOUNDS.toolNameMaxLength), beyond: text(BOUNDS.toolNameMaxLength + 1) },
      { label: 'declared tool name', path: ['tools', 0], key: 'name', atBound: name(BOUNDS.declaredToolNameMaxLength), beyond: name(BOUNDS.declaredToolNameMaxLength + 1) },
      { label: 'tool description', path: ['tools', 0], key: 'description', atBound: text(BOUNDS.toolDescriptionMaxLength), beyond: text(BOUNDS.toolDescriptionMaxLength + 1) },
      { label: 'tool choice name', path: ['toolChoice'], key: 'toolName', atBound: name(BOUNDS.declaredToolNameMaxLength), beyond: name(BOUNDS.declaredToolNameMaxLength + 1) },
      { label: 'format name', path: ['responseFormat'], key: 'name', atBound: text(BOUNDS.responseFormatNameMaxLength), beyond: text(BOUNDS.responseFormatNameMaxLength + 1) },
      { label: 'temperature, highest', path: ['sampling'], key: 'temperature', atBound: BOUNDS.temperatureMax, beyond: BOUNDS.temperatureMax + 1e-9 },
      { label: 'temperature, lowest', path: ['sampling'], key: 'temperature', atBound: BOUNDS.temperatureMin, beyond: BOUNDS.temperatureMin - 1e-9 },
      { label: 'topP, highest', path: ['sampling'], key: 'topP', atBound: BOUNDS.topPMax, beyond: BOUNDS.topPMax + 1e-9 },
      { label: 'topP, lowest', path: ['sampling'], key: 'topP', atBound: BOUNDS.topPMin, beyond: BOUNDS.topPMin - 1e-9 },
      { label: 'frequency penalty, highest', path: ['sampling'], key: 'frequencyPenalty', atBound: BOUNDS.penaltyMax, beyond: BOUNDS.penaltyMax + 1e-9 },
      { label: 'presence penalty, lowest', path: ['sampling'], key: 'presencePenalty', atBound: BOUNDS.penaltyMin, beyond: BOUNDS.penaltyMin - 1e-9 },
      { label: 'stop sequences', path: [], key: 'stopSequences', atBound: new Array<string>(BOUNDS.stopSequencesMaxCount).fill('s'), beyond: new Array<string>(BOUNDS.stopSequencesMaxCount + 1).fill('s') },
      { label: 'prompt cache key', path: ['caching'], key: 'promptCacheKey', atBound: text(BOUNDS.promptCacheKeyMaxLength), beyond: text(BOUNDS.promptCacheKeyMaxLength + 1) },
    ],
  },
  {
    name: 'stream event',
    base: () => ({ type: 'tool-call-start', index: 0, toolCallId: 'c1', toolName: 'weather' }),
    fast: checkStreamEvent,
    schema: normalizedStreamEventV1Schema,
    cases: [
      { label: 'index', path: [], key: 'index', atBound: BOUNDS.streamIndexMax, beyond: BOUNDS.streamIndexMax + 1 },
      { label: 'tool call id', path: [], key: 'toolCallId', atBound: text(BOUNDS.toolCallIdMaxLength), beyond: text(BOUNDS.toolCallIdMaxLength + 1) },
      { label: 'tool name', path: [], key: 'toolName', atBound: text(BOUNDS.toolNameMaxLength), beyond: text(BOUNDS.toolNameMaxLength + 1) },
    ],
  },
  {
    name: 'completed terminal',
    base: () => ({
      status: 'completed',
      result: { kind: 'chat', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'weather', argumentsText: '{}' }] },
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    }),
    fast: fastParseTerminal,
    schema: adapterTerminalOutcomeSchema,
    cases: [
      { label: 'tool call id', path: ['result', 'content', 0], key: 'toolCallId', atBound: text(BOUNDS.toolCallIdMaxLength), beyond: text(BOUNDS.toolCallIdMaxLength + 1) },
      { label: 'tool name', path: ['result', 'content', 0], key: 'toolName', atBound: text(BOUNDS.toolNameMaxLength), beyond: text(BOUNDS.toolNameMaxLength + 1) },
      { label: 'raw finish reason', path: ['finishReason'], key: 'raw', atBound: text(BOUNDS.providerCodeMaxLength), beyond: text(BOUNDS.providerCodeMaxLength + 1) },
    ],
  },
  {
    name: 'failed terminal',
    base: () => ({ status: 'failed', failure: { code: 'rate-limited', retryable: true, retryAfterMs: 10, providerCode: 'rate_limit' } }),
    fast: fastParseTerminal,
    schema: adapterTerminalOutcomeSchema,
    cases: [
      { label: 'retry after', path: ['failure'], key: 'retryAfterMs', atBound: BOUNDS.retryAfterMsMax, beyond: BOUNDS.retryAfterMsMax + 1 },
      { label: 'provider code', path: ['failure'], key: 'providerCode', atBound: text(BOUNDS.providerCodeMaxLength), beyond: text(BOUNDS.providerCodeMaxLength + 1) },
    ],
  },
  {
    name: 'response metadata',
    base: () => ({ providerRequestId: 'req', providerModel: 'm' }),
    fast: fastParseResponseMetadata,
    schema: providerResponseMetadataSchema,
    cases: [
      { label: 'request id', path: [], key: 'providerRequestId', atBound: text(BOUNDS.providerIdentifierMaxLength), beyond: text(BOUNDS.providerIdentifierMaxLength + 1) },
      { label: 'model', path: [], key: 'providerModel', atBound: text(BOUNDS.providerIdentifierMaxLength), beyond: text(BOUNDS.providerIdentifierMaxLength + 1) },
    ],
  },
];

describe('contract bounds: schemas and fast checks agree on both sides of every bound', () => {
  for (const subject of SUBJECTS) {
    it(`${subject.name}: the baseline is valid and decided`, () => {
      const baseline = subject.base();
      expect(subject.schema.safeParse(baseline).success).toBe(true);
      expect(subject.fast(baseline)).toStrictEqual(subject.schema.safeParse(baseline).data);
    });
    for (const bound of subject.cases) {
      it(`${subject.name}: ${bound.label}`, () => {
        const at = subject.base();
        editAt(at, bound.path, bound.key, bound.atBound);
        const beyond = subject.base();
        editAt(beyond, bound.path, bound.key, bound.beyond);
        const answers = {
          schemaAtBound: subject.schema.safeParse(at).success,
          fastAtBound: subject.fast(at) !== undefined,
          schemaBeyond: subject.schema.safeParse(beyond).success,
          fastBeyond: subject.fast(beyond) !== undefined,
        };
        expect(answers).toStrictEqual({ schemaAtBound: true, fastAtBound: true, schemaBeyond: false, fastBeyond: false });
        expect(subject.fast(at)).toStrictEqual(subject.schema.safeParse(at).data);
      });
    }
  }
});
