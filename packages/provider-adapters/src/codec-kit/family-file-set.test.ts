import { readdirSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/*
 * The fixed file set of a family folder, as codec-kit/README.md lists it: a folder that lacks a file of its kind,
 * or holds a file that fits no role, prefix or listed dialect helper, fails here.
 */

const PROTOCOLS = new URL('../protocols/', import.meta.url);
const SHARED_FOLDERS = new Set(['openai-common']);

const EVERY_FAMILY = ['index.ts', 'protocol-family.ts', 'transport-metadata.ts', 'adapter.ts', 'suite-entry.ts', 'wire-readers.ts', 'convert-usage.ts', 'map-error.ts', 'conformance-cases.ts', '__fixtures__'];
const SYNC = ['encode-request.ts', 'decode-response.ts'];
const STREAMING = ['decode-stream.ts', 'map-finish-reason.ts'];
const ASYNC_JOBS = ['encode-create-request.ts', 'encode-job-requests.ts', 'decode-create-response.ts', 'decode-job-snapshot.ts', 'decode-job-list.ts', 'map-job-state.ts', 'convert-timestamps.ts', 'README.md'];
const DIRECT_HTTP = ['ingress.ts', 'egress.ts'];
/** Token counting, optional: each pair is all or nothing (the provider's counting endpoint; the client's count route). */
const COUNTING = ['encode-count-request.ts', 'decode-count-response.ts'];
const CLIENT_COUNTING = ['decode-client-count-request.ts', 'encode-client-count-response.ts'];
const EXACT_NAMES = new Set(['protocol-options.ts', 'client-readers.ts', 'test-support', 'README.md']);
const PREFIXES = ['encode-', 'decode-', 'map-', 'convert-', 'parse-', 'wire-'];
const TEST_FILE = /\.(?:property\.)?test\.ts$/;

/** Helpers that fit no prefix, named one by one (a new one is added here and in the README on purpose). */
const DIALECT_HELPERS: Record<string, readonly string[]> = {
  'agent-cli': ['cli-frame.ts', 'cli-mapping.ts'],
  'gemini-generate-content': ['assert-never.ts', 'is-base64.ts', 'model-path.ts', 'partial-args-writer.ts', 'response-assembler.ts', 'tool-call-id.ts'],
  'openai-chat': ['derive-tool-call-id.ts'],
  'openai-images': ['model-rules.ts'],
  'openai-responses': ['reasoning-text.ts', 'stream-event-types.ts'],
  'kling-video': ['job-id.ts', 'kling-endpoint.ts', 'plan-job-list.ts'],
};

const families = readdirSync(PROTOCOLS).filter((name) => !SHARED_FOLDERS.has(name) && statSync(new URL(name, PROTOCOLS)).isDirectory());

function filesOf(family: string): string[] {
  return readdirSync(new URL(`${family}/`, PROTOCOLS)).filter((name) => !TEST_FILE.test(name));
}

function requiredFiles(files: readonly string[]): string[] {
  const asyncJobs = files.includes('encode-create-request.ts');
  return [
    ...EVERY_FAMILY,
    ...(asyncJobs ? ASYNC_JOBS : SYNC),
    ...(files.includes('decode-stream.ts') ? STREAMING : []),
    ...(files.includes('ingress.ts') || files.includes('egress.ts') ? DIRECT_HTTP : []),
    ...(COUNTING.some((file) => files.includes(file)) ? COUNTING : []),
    ...(CLIENT_COUNTING.some((file) => files.includes(file)) ? CLIENT_COUNTING : []),
  ];
}

function fitsTheSet(family: string, file: string, required: readonly string[]): boolean {
  return required.includes(file) || EXACT_NAMES.has(file) || PREFIXES.some((prefix) => file.startsWith(prefix) && file.endsWith('.ts')) || (DIALECT_HELPERS[family] ?? []).includes(file);
}

describe('family folders keep the fixed file set', () => {
  it('finds all ten families', () => {
    expect(families.sort()).toEqual([
      'agent-cli',
      'anthropic-messages',
      'cohere-rerank',
      'dashscope-tasks',
      'gemini-generate-content',
      'kling-video',
      'openai-chat',
      'openai-embeddings',
      'openai-images',
      'openai-responses',
    ]);
  });

  it.each(families)('%s has every file of its kind and none outside the set', (family) => {
    const files = filesOf(family);
    const required = requiredFiles(files);
    expect({ family, missing: required.filter((file) => !files.includes(file)) }).toStrictEqual({ family, missing: [] });
    expect({ family, outside: files.filter((file) => !fitsTheSet(family, file, required)) }).toStrictEqual({ family, outside: [] });
  });

  it('the rule rejects a folder that leaves the set', () => {
    expect(fitsTheSet('openai-chat', 'wire-readers.ts', requiredFiles([]))).toBe(true);
    expect(fitsTheSet('openai-chat', 'egress-stream-encoder.ts', requiredFiles([]))).toBe(false);
    expect(fitsTheSet('openai-chat', 'helpers.ts', requiredFiles([]))).toBe(false);
    expect(requiredFiles(['encode-create-request.ts'])).toContain('decode-job-snapshot.ts');
    expect(requiredFiles(['encode-request.ts', 'encode-count-request.ts'])).toContain('decode-count-response.ts');
    expect(requiredFiles(['encode-request.ts', 'encode-client-count-response.ts'])).toContain('decode-client-count-request.ts');
    expect(requiredFiles(['encode-request.ts'])).not.toContain('encode-count-request.ts');
  });

  it('the README lists every named file and helper', () => {
    const readme = readFileSync(new URL('./README.md', import.meta.url), 'utf8');
    const named = [...EVERY_FAMILY, ...SYNC, ...STREAMING, ...ASYNC_JOBS, ...DIRECT_HTTP, ...COUNTING, ...CLIENT_COUNTING, ...EXACT_NAMES, ...Object.values(DIALECT_HELPERS).flat()];
    expect(named.filter((name) => !readme.includes(`\`${name}`))).toEqual([]);
  });
});
