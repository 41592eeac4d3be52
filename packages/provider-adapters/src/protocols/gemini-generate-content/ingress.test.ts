import { isCodecErrorV1 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { decodeGeminiClientRequest } from './ingress.js';

const encoder = new TextEncoder();
const minimal = { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] };

function decode(body: unknown, path = '/v1beta/models/gemini-2.5-flash:generateContent', query?: Record<string, string>) {
  return decodeGeminiClientRequest({ path, ...(query === undefined ? {} : { query }), body: encoder.encode(JSON.stringify(body)) });
}

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return isCodecErrorV1(error) ? error.code : 'untyped';
  }
  return undefined;
}

describe('decodeGeminiClientRequest', () => {
  it('reads the model and the method from the path', () => {
    expect(decode(minimal)).toEqual({
      modelLabel: 'gemini-2.5-flash',
      task: { kind: 'chat', stream: false, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] },
    });
    const streamed = decode(minimal, '/v1beta/models/gemini-3-pro-preview:streamGenerateContent', { alt: 'sse' });
    expect(streamed.modelLabel).toBe('gemini-3-pro-preview');
    expect(streamed.task).toMatchObject({ stream: true });
    expect(decode(minimal, '/v1/models/gemini%2D2.5:generateContent').modelLabel).toBe('gemini-2.5');
  });

  it('takes a stream without alt=sse (or with alt=json) as the JSON-array stream, and refuses any other alt', () => {
    expect(decode(minimal, '/v1beta/models/m:streamGenerateContent')).toMatchObject({ task: { stream: true }, clientStreamFraming: 'json-array' });
    expect(decode(minimal, '/v1beta/models/m:streamGenerateContent', { alt: 'json' })).toMatchObject({ clientStreamFraming: 'json-array' });
    expect(decode(minimal, '/v1beta/models/m:streamGenerateContent', { alt: 'sse' })).not.toHaveProperty('clientStreamFraming');
    expect(decode(minimal, '/v1beta/models/m:generateContent', { alt: 'json' })).not.toHaveProperty('clientStreamFraming');
    expect(codeOf(() => decode(minimal, '/v1beta/models/m:streamGenerateContent', { alt: 'proto' }))).toBe('unsupported-feature');
  });

  it.each([
    '/v1beta/models/..%2Fsecrets:generateContent',
    '/v1beta/models/a%2Fb:generateContent',
    '/v1beta/models/%2E%2E:generateContent',
    '/v1beta/models/a%zz:generateContent',
    '/v1beta/models/a%3AstreamGenerateContent:generateContent',
    '/v1beta/models/m:generateContent/extra',
    '/v1beta/tunedModels/m:generateContent',
    '/v1beta/models/m:countTokens',
    '/v1beta/models/:generateContent',
    '/v1beta/models/m%0A:generateContent',
    `/v1beta/models/${'m'.repeat(2000)}:generateContent`,
  ])('refuses the hostile path %s', (path) => {
    expect(codeOf(() => decode(minimal, path))).toBe('invalid-request');
  });

  it('decodes a full request: system, media, thoughts, calls, responses, tools, tool config and generation config', () => {
    const decoded = decode({
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'Look' },
            { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
            { inlineData: { mimeType: 'application/pdf', data: 'JVBERi0=' } },
            { inlineData: { mimeType: 'audio/wav', data: 'UklGRg==' } },
            { fileData: { mimeType: 'image/jpeg', fileUri: 'https://example.com/a.jpg' } },
          ],
        },
        {
          role: 'model',
          parts: [
            { text: 'Thinking', thought: true, thoughtSignature: 'VFM=' },
            { text: 'Calling.' },
            { functionCall: { name: 'weather', args: { city: 'Paris' } }, thoughtSignature: 'RkM=' },
            { functionCall: { name: 'weather', args: { city: 'Rome' } } },
            { functionCall: { name: 'time', id: 'call-9' } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'weather', response: { output: 'sunny' } } },
            { functionResponse: { name: 'weather', response: { temperature: 21 } } },
            { functionResponse: { name: 'time', id: 'call-9', response: { error: 'no clock' } } },
            { text: 'Summarize.' },
          ],
        },
      ],
      tools: [
        {
          functionDeclarations: [
            { name: 'weather', description: 'Weather', parameters: { type: 'OBJECT', properties: { city: { type: 'STRING', nullable: true, example: 'x' } }, required: ['city'] } },
            { name: 'time', parametersJsonSchema: { type: 'object', properties: {} } },
            { name: 'noop' },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['weather'] } },
      generationConfig: {
        temperature: 0.5,
        topP: 0.8,
        topK: 20,
        candidateCount: 1,
        maxOutputTokens: 100,
        stopSequences: ['END'],
        seed: 3,
        presencePenalty: 0.2,
        frequencyPenalty: 0.1,
        responseMimeType: 'application/json',
        responseSchema: { type: 'OBJECT', properties: { ok: { type: 'BOOLEAN' } } },
        thinkingConfig: { thinkingBudget: -1, thinkingLevel: 'high', includeThoughts: true },
        responseModalities: ['TEXT'],
        mediaResolution: 'MEDIA_RESOLUTION_LOW',
      },
      safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
    });
    expect(decoded.task).toEqual({
      kind: 'chat',
      stream: false,
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look' },
            { type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'document', source: { type: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' } },
            { type: 'audio', source: { type: 'base64', mediaType: 'audio/wav', data: 'UklGRg==' } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/a.jpg' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'Thinking', signature: 'VFM=' },
            { type: 'text', text: 'Calling.' },
            { type: 'tool-call', toolCallId: 'gemini-fc-req-1-2', toolName: 'weather', argumentsText: '{"city":"Paris"}', signature: 'RkM=' },
            { type: 'tool-call', toolCallId: 'gemini-fc-req-1-3', toolName: 'weather', argumentsText: '{"city":"Rome"}' },
            { type: 'tool-call', toolCallId: 'call-9', toolName: 'time', argumentsText: '{}' },
          ],
        },
        {
          role: 'tool',
          content: [
            { type: 'tool-result', toolCallId: 'gemini-fc-req-1-2', toolName: 'weather', content: [{ type: 'text', text: 'sunny' }] },
            { type: 'tool-result', toolCallId: 'gemini-fc-req-1-3', toolName: 'weather', content: [{ type: 'text', text: '{"temperature":21}' }] },
            { type: 'tool-result', toolCallId: 'call-9', toolName: 'time', content: [{ type: 'text', text: 'no clock' }], isError: true },
          ],
        },
        { role: 'user', content: [{ type: 'text', text: 'Summarize.' }] },
      ],
      tools: [
        {
          name: 'weather',
          description: 'Weather',
          inputSchema: { type: 'object', properties: { city: { type: ['string', 'null'] } }, required: ['city'] },
        },
        { name: 'time', inputSchema: { type: 'object', properties: {} } },
        { name: 'noop', inputSchema: { type: 'object', properties: {} } },
      ],
      toolChoice: { type: 'tool', toolName: 'weather' },
      sampling: { temperature: 0.5, topP: 0.8, topK: 20, seed: 3, presencePenalty: 0.2, frequencyPenalty: 0.1 },
      maxOutputTokens: 100,
      stopSequences: ['END'],
      responseFormat: { type: 'json', schema: { type: 'object', properties: { ok: { type: 'boolean' } } } },
      reasoning: { effort: 'high', includeReasoning: true },
    });
  });

  it('maps function calling modes', () => {
    const tools = [{ functionDeclarations: [{ name: 'a' }, { name: 'b' }] }];
    const choice = (functionCallingConfig: object) => decode({ ...minimal, tools, toolConfig: { functionCallingConfig } }).task;
    expect(choice({ mode: 'AUTO' })).toMatchObject({ toolChoice: { type: 'auto' } });
    expect(choice({ mode: 'NONE' })).toMatchObject({ toolChoice: { type: 'none' } });
    expect(choice({ mode: 'ANY' })).toMatchObject({ toolChoice: { type: 'required' } });
    expect(choice({ mode: 'ANY', allowedFunctionNames: ['b', 'a'] })).toMatchObject({ toolChoice: { type: 'required' } });
    expect(choice({ mode: 'VALIDATED' })).toMatchObject({ toolChoice: { type: 'auto' }, tools: [{ name: 'a', strict: true }, { name: 'b', strict: true }] });
    expect(codeOf(() => choice({ mode: 'ANY', allowedFunctionNames: ['a', 'zz'] }))).toBe('unsupported-feature');
    expect(codeOf(() => choice({ mode: 'AUTO', allowedFunctionNames: ['a'] }))).toBe('invalid-request');
    expect(codeOf(() => choice({ mode: 'SOMETIMES' }))).toBe('invalid-request');
  });

  it('reads googleSearch as a hosted web search, with its excluded domains, beside function declarations', () => {
    const decoded = decode({ ...minimal, tools: [{ googleSearch: { excludeDomains: ['bad.example'] } }, { functionDeclarations: [{ name: 'f' }] }] });
    expect(decoded.task).toMatchObject({ hostedTools: [{ kind: 'web-search', blockedDomains: ['bad.example'] }], tools: [{ name: 'f' }] });
    expect(decoded.hostedToolNames).toEqual(['googleSearch']);
    expect(decode({ ...minimal, tools: [{ googleSearch: {} }] }).task).not.toHaveProperty('tools');
  });

  it('names the client’s generationConfig field of an out-of-range value, not the task’s', () => {
    const pathOf = (generationConfig: object): string | undefined => {
      try {
        decode({ ...minimal, generationConfig });
      } catch (error) {
        return isCodecErrorV1(error) ? error.path : 'untyped';
      }
      return undefined;
    };
    expect(pathOf({ temperature: 5 })).toBe('generationConfig.temperature');
    expect(pathOf({ maxOutputTokens: 0 })).toBe('generationConfig.maxOutputTokens');
  });

  it.each([
    ['an unknown top-level field', { ...minimal, system_instruction: { parts: [{ text: 'x' }] } }, 'invalid-request'],
    ['cached content', { ...minimal, cachedContent: 'cachedContents/abc' }, 'unsupported-feature'],
    ['two candidates', { ...minimal, generationConfig: { candidateCount: 2 } }, 'unsupported-feature'],
    ['image output', { ...minimal, generationConfig: { responseModalities: ['TEXT', 'IMAGE'] } }, 'unsupported-feature'],
    ['logprobs', { ...minimal, generationConfig: { responseLogprobs: true } }, 'unsupported-feature'],
    ['an unknown generation option', { ...minimal, generationConfig: { warpFactor: 9 } }, 'invalid-request'],
    ['an enum MIME type', { ...minimal, generationConfig: { responseMimeType: 'text/x.enum' } }, 'unsupported-feature'],
    ['a schema without JSON MIME type', { ...minimal, generationConfig: { responseJsonSchema: { type: 'object' } } }, 'invalid-request'],
    ['code execution tools', { ...minimal, tools: [{ codeExecution: {} }] }, 'unsupported-feature'],
    ['a googleSearch that is not an object', { ...minimal, tools: [{ googleSearch: true }] }, 'invalid-request'],
    ['a non-text system part', { ...minimal, systemInstruction: { parts: [{ inlineData: { mimeType: 'image/png', data: 'AA==' } }] } }, 'unsupported-feature'],
    ['empty contents', { contents: [] }, 'invalid-request'],
    ['a turn without parts', { contents: [{ role: 'user', parts: [] }] }, 'invalid-request'],
    ['an unknown role', { contents: [{ role: 'system', parts: [{ text: 'x' }] }] }, 'invalid-request'],
    ['an unmatched function response', { contents: [{ role: 'user', parts: [{ functionResponse: { name: 'f', response: {} } }] }] }, 'invalid-request'],
    ['code execution history', { contents: [{ role: 'model', parts: [{ executableCode: { language: 'PYTHON', code: 'x' } }] }] }, 'unsupported-feature'],
    ['video input', { contents: [{ role: 'user', parts: [{ inlineData: { mimeType: 'video/mp4', data: 'AA==' } }] }] }, 'unsupported-feature'],
    ['a gs:// file', { contents: [{ role: 'user', parts: [{ fileData: { mimeType: 'image/png', fileUri: 'gs://b/x.png' } }] }] }, 'unsupported-feature'],
    ['a file without MIME type', { contents: [{ role: 'user', parts: [{ fileData: { fileUri: 'https://x/y' } }] }] }, 'invalid-request'],
    ['non-base64 inline data', { contents: [{ role: 'user', parts: [{ inlineData: { mimeType: 'image/png', data: '%%%' } }] }] }, 'invalid-request'],
    ['a call in a user turn', { contents: [{ role: 'user', parts: [{ functionCall: { name: 'f' } }] }] }, 'invalid-request'],
    ['array arguments', { contents: [{ role: 'model', parts: [{ functionCall: { name: 'f', args: [1] } }] }] }, 'invalid-request'],
    ['an invalid tool name', { ...minimal, tools: [{ functionDeclarations: [{ name: 'has space' }] }] }, 'invalid-request'],
    ['a body that is an array', [minimal], 'invalid-request'],
    ['a prototype key', JSON.parse('{"contents":[{"role":"user","parts":[{"text":"x"}]}],"__proto__":{}}'), 'forbidden-key'],
  ] as const)('refuses %s', (_label, body, code) => {
    expect(codeOf(() => decode(body))).toBe(code);
  });

  it('refuses malformed, invalid UTF-8 and oversized bodies with typed errors', () => {
    const path = '/v1beta/models/m:generateContent';
    expect(codeOf(() => decodeGeminiClientRequest({ path, body: encoder.encode('{"contents":') }))).toBe('malformed-json');
    expect(codeOf(() => decodeGeminiClientRequest({ path, body: new Uint8Array([0x7b, 0xff, 0x7d]) }))).toBe('invalid-encoding');
    const big = encoder.encode(JSON.stringify({ contents: [{ parts: [{ text: 'x'.repeat(2000) }] }] }));
    expect(codeOf(() => decodeGeminiClientRequest({ path, body: big }, { jsonLimits: { maxBytes: 1000 } }))).toBe('body-too-large');
    const deep = encoder.encode(`${'['.repeat(100)}${']'.repeat(100)}`);
    expect(codeOf(() => decodeGeminiClientRequest({ path, body: deep }))).toBe('nesting-too-deep');
  });
});
