import { describe, expect, it } from 'vitest';
import { GEMINI3_TOOL_CALL_JSON, VERTEX_STREAM_TOOL_CALL_ARGUMENTS_CHUNKS } from './__fixtures__/recorded-fixtures.js';
import { readFixture } from './test-support/gemini-test-support.js';

describe('recorded fixture constants', () => {
  it('equal their files byte for byte', () => {
    expect(GEMINI3_TOOL_CALL_JSON).toBe(readFixture('vercel-ai__google-tool-call-gemini3.json'));
    expect(VERTEX_STREAM_TOOL_CALL_ARGUMENTS_CHUNKS).toBe(readFixture('vercel-ai__google-stream-tool-call-arguments.chunks.txt'));
  });
});
