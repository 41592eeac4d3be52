import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as recorded from './__fixtures__/recorded-fixtures.js';

const files: Record<string, string> = {
  KLING_CREATE_NUMERIC_TASK_ID_BODY: 'constructed__create-numeric-task-id.txt',
};

describe('kling-video fixture constants', () => {
  it.each(Object.entries(files))('%s equals its file byte for byte', (name, file) => {
    expect((recorded as Record<string, string>)[name]).toBe(readFileSync(new URL(`./__fixtures__/${file}`, import.meta.url), 'utf8'));
  });

  it('holds exactly the listed constants', () => {
    expect(Object.keys(recorded).sort()).toEqual(Object.keys(files).sort());
  });
});
