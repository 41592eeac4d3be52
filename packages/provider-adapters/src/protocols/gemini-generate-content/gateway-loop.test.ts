import { createProtocolEngineTargetBindingV1, createProtocolEngineV1 } from '@tokenforge/protocol-engine';
import type { NormalizedStreamEventV4, ProviderDispatchTargetV2 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { createSseParser } from '../../codec-kit/index.js';
import { createTokenForgeProtocolSuiteV1 } from '../../suite/create-protocol-suite-v1.js';
import { createFixtureTransportV1, type FixtureResponseV1 } from '../../testing/fixture-transport.js';
import { createGeminiGenerateContentSuiteEntryV1 } from './suite-entry.js';
import { readFixture, runMachine } from './test-support/gemini-test-support.js';

// A Gemini client served by a Gemini provider through the engine: ingress → task → engine → egress.
const suite = createTokenForgeProtocolSuiteV1({ entries: [createGeminiGenerateContentSuiteEntryV1()] });
const codecs = suite.codecsFor('gemini-generate-content/v1');
const engine = createProtocolEngineV1({ registry: suite.registry });
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function targetFor(providerModel: string): ProviderDispatchTargetV2 {
  return {
    provider: 'loop-provider',
    providerModel,
    connectionRef: 'loop',
    capability: { protocolFamily: 'gemini-generate-content/v1', executionMode: 'stream-capable', taskKinds: ['chat'], tools: true, reasoning: true },
  };
}

async function serve(path: string, query: Record<string, string> | undefined, clientBody: unknown, response: FixtureResponseV1) {
  if (codecs === undefined) throw new Error('the family must have codecs');
  const { task, modelLabel } = codecs.ingress.decodeRequest({ path, ...(query === undefined ? {} : { query }), body: encoder.encode(JSON.stringify(clientBody)) });
  const transport = createFixtureTransportV1({ responses: [response] });
  const binding = createProtocolEngineTargetBindingV1({ target: targetFor(modelLabel), bindTransport: () => transport });
  const execution = await engine.execute({ binding, task, signal: new AbortController().signal });
  return { execution, transport, egress: codecs.egress, context: { responseId: 'host-resp-1', modelLabel, createdAtMs: 0 } };
}

const clientBody = {
  contents: [{ role: 'user', parts: [{ text: 'Weather in SF?' }] }],
  tools: [{ functionDeclarations: [{ name: 'weather', parameters: { type: 'OBJECT', properties: { location: { type: 'STRING' } } } }] }],
};

describe('Gemini client through the engine to a Gemini provider', () => {
  it('returns the provider answer in Gemini form, signature and usage intact (recorded)', async () => {
    const { execution, transport, egress, context } = await serve('/v1beta/models/gemini-3-pro-preview:generateContent', undefined, clientBody, {
      body: { type: 'text', text: readFixture('vercel-ai__google-tool-call-gemini3.json') },
    });
    expect(transport.requests[0]?.path).toBe('/v1beta/models/gemini-3-pro-preview:generateContent');
    if (execution.kind !== 'response') throw new Error('expected a response');
    const body = JSON.parse(decoder.decode(egress.encodeResponse(execution.terminal, context).body)) as unknown;
    const recorded = JSON.parse(readFixture('vercel-ai__google-tool-call-gemini3.json')) as {
      candidates: [{ content: unknown; finishReason: string; index: number }];
      usageMetadata: {
        promptTokenCount: number;
        candidatesTokenCount: number;
        thoughtsTokenCount: number;
        totalTokenCount: number;
        promptTokensDetails: readonly { modality: string; tokenCount: number }[];
      };
    };
    const usage = recorded.usageMetadata;
    // What a Gemini client sees equals the provider's answer, token details by modality included, minus what the
    // normalized form does not carry (finishMessage) and with the host's response id and model label.
    expect(body).toEqual({
      candidates: [{ content: recorded.candidates[0].content, finishReason: recorded.candidates[0].finishReason, index: 0 }],
      usageMetadata: {
        promptTokenCount: usage.promptTokenCount,
        candidatesTokenCount: usage.candidatesTokenCount,
        thoughtsTokenCount: usage.thoughtsTokenCount,
        totalTokenCount: usage.totalTokenCount,
        promptTokensDetails: usage.promptTokensDetails,
      },
      modelVersion: 'gemini-3-pro-preview',
      responseId: 'host-resp-1',
    });
  });

  it('re-streams the recorded Vertex stream as Gemini SSE that decodes to the same terminal (recorded)', async () => {
    const { execution, egress, context } = await serve('/v1beta/models/gemini-x:streamGenerateContent', { alt: 'sse' }, clientBody, {
      body: { type: 'chunks', text: readFixture('vercel-ai__google-stream-tool-call-arguments.chunks.txt'), framing: 'gemini-sse', lineEnding: 'crlf' },
    });
    if (execution.kind !== 'stream') throw new Error('expected a stream');
    const streamEncoder = egress.createStreamEncoder?.(context);
    if (streamEncoder === undefined) throw new Error('the egress must stream');
    const events: NormalizedStreamEventV4[] = [];
    const bytes: Uint8Array[] = [];
    for await (const event of execution.events) {
      events.push(event);
      bytes.push(streamEncoder.encodeEvent(event));
    }
    const terminal = await execution.terminal;
    bytes.push(streamEncoder.encodeTerminal(terminal));
    const parser = createSseParser({ bareJson: true });
    const replayed = runMachine([...bytes.flatMap((chunk) => [...parser.push(chunk)]), ...parser.finish()]);
    expect(terminal.status).toBe('completed');
    // Everything survives except the derived call ids: the upstream sent none, so the client sees none and
    // derives its own from the host's response id.
    const expected = JSON.parse(JSON.stringify(terminal).replaceAll('gemini-fc-61660bc6-', 'gemini-fc-f248537a-')) as unknown;
    expect(JSON.stringify(terminal)).toContain('gemini-fc-61660bc6-1');
    expect(replayed.terminal).toEqual(expected);
  });
});
