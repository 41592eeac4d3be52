import { describe, expect, it } from 'vitest';
import * as constants from './__fixtures__/recorded-fixtures.js';
import { readFixture } from './test-support/gemini-test-support.js';

const FILES: Record<keyof typeof constants, string> = {
  GEMINI3_TOOL_CALL_JSON: 'vercel-ai__google-tool-call-gemini3.json',
  VERTEX_STREAM_TOOL_CALL_ARGUMENTS_CHUNKS: 'vercel-ai__google-stream-tool-call-arguments.chunks.txt',
  CONSTRUCTED_REASONING_SIGNATURE_CHUNKS: 'constructed__gemini-reasoning-signature.chunks.txt',
  CONSTRUCTED_PROMPT_BLOCKED_JSON: 'constructed__gemini-prompt-blocked.json',
  CONSTRUCTED_429_RETRY_INFO_JSON: 'constructed__gemini-429-retry-info.json',
  CONSTRUCTED_BARE_ERROR_MID_STREAM_BODY: 'constructed__gemini-bare-error-mid-stream.body.txt',
  CONSTRUCTED_TRUNCATED_CHUNKS: 'constructed__gemini-truncated.chunks.txt',
};

describe('fixture constants', () => {
  it.each(Object.entries(FILES))('%s equals its file byte for byte', (name, file) => {
    expect(constants[name as keyof typeof constants]).toBe(readFixture(file));
  });
});
