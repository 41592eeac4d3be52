import * as stable from '@opentelemetry/semantic-conventions';
import * as incubating from '@opentelemetry/semantic-conventions/incubating';
import { describe, expect, it } from 'vitest';
import * as conventions from './gen-ai-conventions.js';

describe('gen-ai conventions', () => {
  it('holds the same values as the OpenTelemetry semantic conventions package', () => {
    const names = Object.keys(conventions);
    expect(names.length).toBeGreaterThan(15);
    for (const name of names) expect([name, (conventions as Record<string, string>)[name]]).toEqual([name, (incubating as Record<string, unknown>)[name] ?? (stable as Record<string, unknown>)[name]]);
  });
});
