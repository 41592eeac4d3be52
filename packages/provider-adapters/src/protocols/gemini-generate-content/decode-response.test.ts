import { describe, expect, it } from 'vitest';
import { isProtocolViolationError } from '../../codec-kit/index.js';
import { decodeGeminiResponse } from './decode-response.js';
import { chunk, readFixture } from './test-support/gemini-test-support.js';

describe('decodeGeminiResponse', () => {
  it('decodes the recorded Gemini 3 function call with its thought signature (recorded)', () => {
    const body: unknown = JSON.parse(readFixture('vercel-ai__google-tool-call-gemini3.json'));
    const decoded = decodeGeminiResponse(body);
    expect(decoded.providerModel).toBe('gemini-3-pro-preview');
    expect(decoded.terminal).toEqual({
      status: 'completed',
      result: {
        kind: 'chat',
        content: [
          {
            type: 'tool-call',
            toolCallId: 'gemini-fc-8c60967c-0',
            toolName: 'weather',
            argumentsText: '{"location":"San Francisco"}',
            signature: 'Eqo+Cqc+Ab4+9vtgONaaz6qwy6WXdp7gCd2w0X+Wz2gaBgY0Gv6A12JKo0y5vQwf9YQFyhMbKr1E9m17VT6HXd7jXzjaGYaE',
          },
        ],
      },
      finishReason: { unified: 'tool-calls', raw: 'STOP' },
      usage: { inputTokens: 29, inputTokensByModality: { text: 29 }, outputTokens: 1816, reasoningOutputTokens: 1801, totalTokens: 1845 },
    });
  });

  it('maps a blocked prompt to content-filter with no content (constructed, §4.9.2)', () => {
    const decoded = decodeGeminiResponse({ promptFeedback: { blockReason: 'PROHIBITED_CONTENT' }, usageMetadata: { promptTokenCount: 7, totalTokenCount: 7 } });
    expect(decoded.terminal).toEqual({
      status: 'completed',
      result: { kind: 'chat', content: [] },
      finishReason: { unified: 'content-filter', raw: 'blockReason:PROHIBITED_CONTENT' },
      usage: { inputTokens: 7, totalTokens: 7 },
    });
  });

  it('maps SAFETY without content and MALFORMED_FUNCTION_CALL without parts (constructed, §4.9.4)', () => {
    const safety = decodeGeminiResponse({ candidates: [{ finishReason: 'SAFETY', index: 0 }] });
    expect(safety.terminal).toMatchObject({ status: 'completed', result: { content: [] }, finishReason: { unified: 'content-filter', raw: 'SAFETY' } });
    const emptyContent = decodeGeminiResponse({ candidates: [{ content: {}, finishReason: 'SAFETY' }] });
    expect(emptyContent.terminal).toMatchObject({ finishReason: { unified: 'content-filter' } });
    const malformed = decodeGeminiResponse({ candidates: [{ content: { role: 'model' }, finishReason: 'MALFORMED_FUNCTION_CALL' }] });
    expect(malformed.terminal).toMatchObject({ result: { content: [] }, finishReason: { unified: 'other', raw: 'MALFORMED_FUNCTION_CALL' } });
  });

  it('reads a zero-argument call as {} and keeps the signature only where sent (constructed, §4.9.3)', () => {
    const decoded = decodeGeminiResponse(
      chunk(
        [
          { functionCall: { name: 'now' }, thoughtSignature: 'c2lnMQ==' },
          { functionCall: { name: 'weather', args: { city: 'Paris', days: [1, 2] }, id: 'call-7' } },
        ],
        {},
        { finishReason: 'STOP' },
      ),
    );
    expect(decoded.terminal).toMatchObject({
      result: {
        content: [
          { type: 'tool-call', toolCallId: 'gemini-fc-73ce6f99-0', toolName: 'now', argumentsText: '{}', signature: 'c2lnMQ==' },
          { type: 'tool-call', toolCallId: 'call-7', toolName: 'weather', argumentsText: '{"city":"Paris","days":[1,2]}' },
        ],
      },
      finishReason: { unified: 'tool-calls', raw: 'STOP' },
    });
    const second = (decoded.terminal as { result: { content: object[] } }).result.content[1];
    expect(second).not.toHaveProperty('signature');
  });

  it('keeps thoughts, text and a signature on the last text part as separate blocks', () => {
    const decoded = decodeGeminiResponse(
      chunk(
        [
          { text: 'Thinking about it. ', thought: true },
          { text: 'More.', thought: true },
          { text: 'The answer is 4.', thoughtSignature: 'U0lH' },
        ],
        { usageMetadata: { promptTokenCount: 10, cachedContentTokenCount: 4, candidatesTokenCount: 5, thoughtsTokenCount: 20, totalTokenCount: 35 } },
        { finishReason: 'STOP' },
      ),
    );
    expect(decoded.terminal).toEqual({
      status: 'completed',
      result: {
        kind: 'chat',
        content: [
          { type: 'reasoning', text: 'Thinking about it. More.' },
          { type: 'text', text: 'The answer is 4.' },
          { type: 'reasoning', text: '', signature: 'U0lH' },
        ],
      },
      finishReason: { unified: 'stop', raw: 'STOP' },
      usage: { inputTokens: 10, cacheReadInputTokens: 4, outputTokens: 25, reasoningOutputTokens: 20, totalTokens: 35 },
    });
  });

  it('ends the open thought block with a signature on an empty text part', () => {
    const decoded = decodeGeminiResponse(chunk([{ text: 'hmm', thought: true }, { text: '', thoughtSignature: 'U0lH' }], {}, { finishReason: 'STOP' }));
    expect(decoded.terminal).toMatchObject({ result: { content: [{ type: 'reasoning', text: 'hmm', signature: 'U0lH' }] } });
  });

  it('reads past known harmless part kinds and maps MAX_TOKENS to length', () => {
    const decoded = decodeGeminiResponse(
      chunk([{ executableCode: { language: 'PYTHON', code: 'print(1)' } }, { codeExecutionResult: { outcome: 'OUTCOME_OK' } }, { text: 'done' }], {}, { finishReason: 'MAX_TOKENS' }),
    );
    expect(decoded.terminal).toMatchObject({ result: { content: [{ type: 'text', text: 'done' }] }, finishReason: { unified: 'length', raw: 'MAX_TOKENS' } });
  });

  it('skips an empty part {} beside real parts (real traffic)', () => {
    const decoded = decodeGeminiResponse(chunk([{ text: 'Hello' }, {}, { text: ', world' }, { videoMetadata: null }], {}, { finishReason: 'STOP' }));
    expect(decoded.terminal).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'Hello, world' }] } });
  });

  it('keeps descriptive enums open: unknown safety categories, probabilities and modalities never fail', () => {
    const decoded = decodeGeminiResponse(
      chunk(
        [{ text: 'ok' }],
        {
          usageMetadata: {
            promptTokenCount: 3,
            candidatesTokenCount: 1,
            totalTokenCount: 4,
            promptTokensDetails: [{ modality: 'HOLOGRAM', tokenCount: 3 }],
            trafficType: 'SOME_NEW_TIER',
          },
          promptFeedback: { safetyRatings: [{ category: 'HARM_CATEGORY_NEW_ONE', probability: 'SOMEWHAT' }] },
        },
        { finishReason: 'STOP', safetyRatings: [{ category: 'HARM_CATEGORY_FUTURE', probability: 'UNSURE', blocked: false, severity: 'HARM_SEVERITY_X' }] },
      ),
    );
    expect(decoded.terminal).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'ok' }] }, usage: { inputTokens: 3, outputTokens: 1 } });
  });

  it('turns an error object in a 2xx body into a failed terminal', () => {
    const decoded = decodeGeminiResponse({ error: { code: 503, message: 'overloaded', status: 'UNAVAILABLE' } });
    expect(decoded.terminal).toEqual({ status: 'failed', failure: { code: 'overloaded', retryable: true, providerCode: 'UNAVAILABLE' } });
  });

  it.each([
    ['two candidates', { candidates: [{ finishReason: 'STOP' }, { finishReason: 'STOP' }] }],
    ['no finish reason', chunk([{ text: 'hi' }])],
    ['a candidate index other than 0', { candidates: [{ index: 1, finishReason: 'STOP' }] }],
    ['a part with two data keys', chunk([{ text: 'a', functionCall: { name: 'x' } }], {}, { finishReason: 'STOP' })],
    ['an unknown part kind', chunk([{ hologram: {} }], {}, { finishReason: 'STOP' })],
    ['a functionResponse part', chunk([{ functionResponse: { name: 'x', response: {} } }], {}, { finishReason: 'STOP' })],
    ['non-object args', chunk([{ functionCall: { name: 'x', args: [1] } }], {}, { finishReason: 'STOP' })],
    ['a negative usage count', { candidates: [{ finishReason: 'STOP' }], usageMetadata: { promptTokenCount: -1 } }],
    ['cached tokens above prompt tokens', { candidates: [{ finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 1, cachedContentTokenCount: 2 } }],
    ['a lowercase finish reason', { candidates: [{ finishReason: 'stop' }] }],
    ['a non-object body', ['not', 'an', 'object']],
    ['a string text', chunk([{ text: 5 }], {}, { finishReason: 'STOP' })],
  ])('refuses %s with a protocol violation', (_label, body) => {
    let thrown: unknown;
    try {
      decodeGeminiResponse(body);
    } catch (error) {
      thrown = error;
    }
    expect(isProtocolViolationError(thrown)).toBe(true);
  });
});

describe('decodeGeminiResponse: usage details', () => {
  it('reads the prompt and candidate tokens by modality (unknown modality ignored), thoughts and the service tier', () => {
    const decoded = decodeGeminiResponse(
      chunk([{ text: 'ok' }], {
        usageMetadata: {
          promptTokenCount: 300,
          cachedContentTokenCount: 100,
          candidatesTokenCount: 20,
          thoughtsTokenCount: 30,
          toolUsePromptTokenCount: 7,
          totalTokenCount: 357,
          promptTokensDetails: [{ modality: 'TEXT', tokenCount: 40 }, { modality: 'IMAGE', tokenCount: 258 }, { modality: 'HOLOGRAM', tokenCount: 2 }],
          candidatesTokensDetails: [{ modality: 'TEXT', tokenCount: 20 }],
          cacheTokensDetails: [{ modality: 'TEXT', tokenCount: 100 }],
          toolUsePromptTokensDetails: [{ modality: 'TEXT', tokenCount: 7 }],
          serviceTier: 'standard',
        },
      }, { finishReason: 'STOP' }),
    );
    expect(decoded.terminal).toMatchObject({
      status: 'completed',
      usage: {
        inputTokens: 300,
        cacheReadInputTokens: 100,
        outputTokens: 50,
        reasoningOutputTokens: 30,
        totalTokens: 357,
        inputTokensByModality: { text: 40, image: 258 },
        outputTokensByModality: { text: 20 },
        serviceTier: 'standard',
      },
    });
  });

  it('leaves out malformed details and drops a split larger than its total, never failing the answer', () => {
    const decoded = decodeGeminiResponse(
      chunk([{ text: 'ok' }], {
        usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 2, totalTokenCount: 7, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 9 }], candidatesTokensDetails: 'TEXT', serviceTier: '' },
      }, { finishReason: 'STOP' }),
    );
    expect(decoded.terminal).toMatchObject({ status: 'completed' });
    expect((decoded.terminal as { usage: object }).usage).toEqual({ inputTokens: 5, outputTokens: 2, totalTokens: 7 });
  });
});

