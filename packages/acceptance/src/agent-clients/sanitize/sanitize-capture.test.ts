import { describe, expect, it } from 'vitest';
import { AGENT_CLIENT_PROMPTS } from '../capture/agent-client-runs.js';
import type { RecordedRequest } from '../recorder/request-recorder.js';
import { filler, isFiller, sanitizeCapture } from './sanitize-capture.js';

const request = (body: unknown): RecordedRequest => ({ method: 'POST', path: '/v1/messages', query: {}, headers: { 'user-agent': 'client/1.0 (linux)' }, body });

describe('sanitizeCapture', () => {
  it('keeps the length and recognizes its own filler', () => {
    for (const length of [0, 1, 6, 7, 8, 100, 1001]) {
      expect(filler(length)).toHaveLength(length);
      expect(isFiller(filler(length))).toBe(true);
    }
    expect(isFiller('filler text')).toBe(false);
    expect(isFiller('You are a helpful agent.')).toBe(false);
  });

  it('replaces prose and prose-keyed texts, keeps keywords, names, our prompts and the shape', () => {
    const system = 'You are an agent. Follow these instructions carefully.';
    const sanitized = sanitizeCapture(
      request({
        model: 'some-model',
        system: [{ type: 'text', text: system, cache_control: { type: 'ephemeral' } }],
        messages: [{ role: 'user', content: [{ type: 'text', text: AGENT_CLIENT_PROMPTS.plain }] }],
        tools: [{ name: 'Glob', description: 'Finds_files_by_pattern', input_schema: { type: 'object', properties: { pattern: { type: 'string', description: 'A glob' } } } }],
        reasoning: { summary: 'auto' },
        max_tokens: 100,
      }),
    ).body as Record<string, any>;
    expect(sanitized.system[0].text).toBe(filler(system.length));
    expect(sanitized.system[0].cache_control).toEqual({ type: 'ephemeral' });
    expect(sanitized.messages[0].content[0].text).toBe(AGENT_CLIENT_PROMPTS.plain);
    expect(sanitized.tools[0].name).toBe('Glob');
    expect(sanitized.tools[0].description).toBe(filler('Finds_files_by_pattern'.length));
    expect(sanitized.tools[0].input_schema.properties.pattern.description).toBe(filler(6));
    expect(sanitized.reasoning.summary).toBe('auto');
    expect(sanitized.max_tokens).toBe(100);
    expect(sanitized.model).toBe('some-model');
  });

  it('sanitizes inside strings that hold JSON and keeps them JSON', () => {
    const sanitized = sanitizeCapture(request({ arguments: JSON.stringify({ command: 'ls -la /home/user/project', note: 'short' }) })).body as Record<string, string>;
    expect(JSON.parse(sanitized.arguments ?? '')).toEqual({ command: filler(25), note: 'short' });
  });

  it('replaces machine paths in kept strings, query and headers', () => {
    const sanitized = sanitizeCapture({ ...request({ dir_path: '/home/me/run-1/scratch' }), query: { dir: '/home/me/run-1' }, headers: { 'x-cwd': '/home/me/run-1/scratch' } }, ['/home/me/run-1']);
    expect(sanitized.body).toEqual({ dir_path: '/run/scratch' });
    expect(sanitized.query).toEqual({ dir: '/run' });
    expect(sanitized.headers).toEqual({ 'x-cwd': '/run/scratch' });
  });

  it('is idempotent, so committed captures can be sanitized again', () => {
    const once = sanitizeCapture(request({ system: 'Long client text that reads like prose.', items: [{ type: 'text', text: 'a b c' }] }));
    expect(sanitizeCapture(once)).toEqual(once);
  });
});
