import { adapterTerminalOutcomeSchema, isCodecErrorV1, taskEnvelopeV2Schema } from '@tokenforge/model-protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isProtocolViolationError } from '../../codec-kit/index.js';
import { decodeGeminiResponse } from './decode-response.js';
import { encodeGeminiResponse } from './egress.js';
import { encodeGeminiRequest } from './encode-request.js';
import { decodeGeminiClientRequest } from './ingress.js';

const encoder = new TextEncoder();

const part = fc.oneof(
  fc.record({ text: fc.oneof(fc.string(), fc.constant(3)), thought: fc.oneof(fc.boolean(), fc.constant('x')), thoughtSignature: fc.string() }, { requiredKeys: [] }),
  fc.record({ functionCall: fc.record({ name: fc.oneof(fc.string(), fc.constant(1)), args: fc.jsonValue(), id: fc.string() }, { requiredKeys: [] }), thoughtSignature: fc.string() }, { requiredKeys: ['functionCall'] }),
  fc.record({ functionResponse: fc.record({ name: fc.string(), response: fc.jsonValue(), id: fc.string() }, { requiredKeys: [] }) }),
  fc.record({ inlineData: fc.record({ mimeType: fc.constantFrom('image/png', 'application/pdf', 'audio/wav', 'video/mp4', 'x'), data: fc.constantFrom('AAAA', '', '%%') }, { requiredKeys: [] }) }),
  fc.record({ fileData: fc.record({ mimeType: fc.constantFrom('image/png', 'text/plain'), fileUri: fc.constantFrom('https://x/y', 'gs://b/c', 'http://x', 'nope', 'https://u:p@x') }, { requiredKeys: [] }) }),
  fc.jsonValue(),
);

const candidateBody = fc.record(
  {
    candidates: fc.oneof(
      fc.jsonValue(),
      fc.array(
        fc.record(
          {
            content: fc.oneof(fc.jsonValue(), fc.record({ role: fc.constantFrom('model', 'user'), parts: fc.oneof(fc.array(part, { maxLength: 4 }), fc.jsonValue()) }, { requiredKeys: [] })),
            finishReason: fc.oneof(fc.constantFrom('STOP', 'MAX_TOKENS', 'SAFETY', 'OTHER', 'NEW'), fc.string(), fc.integer()),
            index: fc.oneof(fc.constant(0), fc.jsonValue()),
          },
          { requiredKeys: [] },
        ),
        { maxLength: 2 },
      ),
    ),
    promptFeedback: fc.oneof(fc.jsonValue(), fc.record({ blockReason: fc.oneof(fc.constantFrom('SAFETY', 'OTHER'), fc.jsonValue()) })),
    usageMetadata: fc.oneof(
      fc.jsonValue(),
      fc.record({ promptTokenCount: fc.oneof(fc.nat(100), fc.jsonValue()), candidatesTokenCount: fc.nat(100), thoughtsTokenCount: fc.nat(100), totalTokenCount: fc.nat(400) }, { requiredKeys: [] }),
    ),
    error: fc.jsonValue(),
    modelVersion: fc.jsonValue(),
    responseId: fc.oneof(fc.string(), fc.jsonValue()),
  },
  { requiredKeys: [] },
);

describe('gemini-generate-content codec properties', () => {
  it('decodes any response body to a valid terminal or a typed violation, and egress accepts every terminal it makes', () => {
    fc.assert(
      fc.property(fc.oneof(candidateBody, fc.jsonValue()), (body) => {
        let decoded;
        try {
          decoded = decodeGeminiResponse(body);
        } catch (error) {
          expect(isProtocolViolationError(error) || isCodecErrorV1(error)).toBe(true);
          return;
        }
        expect(adapterTerminalOutcomeSchema.safeParse(decoded.terminal).success).toBe(true);
        const response = encodeGeminiResponse(decoded.terminal, { responseId: 'r', modelLabel: 'm', createdAtMs: 0 });
        expect(response.status).toBeGreaterThanOrEqual(200);
      }),
      { numRuns: 500 },
    );
  });

  it('decodes any client body to a valid task or a typed codec error, and the task encodes or is refused by a typed error', () => {
    const contents = fc.array(fc.record({ role: fc.constantFrom('user', 'model', undefined, 'x'), parts: fc.array(part, { maxLength: 4 }) }, { requiredKeys: ['parts'] }), { maxLength: 4 });
    const body = fc.record(
      {
        contents: fc.oneof(contents, fc.jsonValue()),
        systemInstruction: fc.oneof(fc.record({ parts: fc.array(part, { maxLength: 2 }) }), fc.jsonValue()),
        tools: fc.oneof(fc.jsonValue(), fc.array(fc.record({ functionDeclarations: fc.array(fc.record({ name: fc.string(), parameters: fc.jsonValue() }, { requiredKeys: [] }), { maxLength: 2 }) }), { maxLength: 2 })),
        toolConfig: fc.jsonValue(),
        generationConfig: fc.oneof(
          fc.jsonValue(),
          fc.record(
            { temperature: fc.double(), topK: fc.oneof(fc.nat(), fc.double()), maxOutputTokens: fc.integer(), stopSequences: fc.array(fc.string(), { maxLength: 7 }), thinkingConfig: fc.jsonValue() },
            { requiredKeys: [] },
          ),
        ),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(body, fc.constantFrom('generateContent', 'streamGenerateContent'), (value, method) => {
        let decoded;
        try {
          decoded = decodeGeminiClientRequest({ path: `/v1beta/models/m:${method}`, query: { alt: 'sse' }, body: encoder.encode(JSON.stringify(value)) });
        } catch (error) {
          expect(isCodecErrorV1(error)).toBe(true);
          return;
        }
        expect(taskEnvelopeV2Schema.safeParse(decoded.task).success).toBe(true);
        try {
          encodeGeminiRequest(decoded.task, decoded.modelLabel);
        } catch (error) {
          expect(isCodecErrorV1(error)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});
