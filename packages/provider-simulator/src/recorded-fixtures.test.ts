import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES_DIRECTORY, readRecordedFixture } from './recorded-fixtures.js';

const families = readdirSync(FIXTURES_DIRECTORY);

describe('the shipped fixtures', () => {
  it('cover the families that serve recorded scenarios', () => {
    expect(families.length).toBeGreaterThanOrEqual(8);
  });

  it.each(families)('%s: every file has a row in its NOTICE.md', (family) => {
    const notice = readFileSync(join(FIXTURES_DIRECTORY, family, 'NOTICE.md'), 'utf8');
    const files = readdirSync(join(FIXTURES_DIRECTORY, family)).filter((file) => file !== 'NOTICE.md');
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(notice, file).toContain(`| \`${file}\` |`);
  });

  it('reads a fixture by family and name, and refuses names that leave the folder', async () => {
    expect(await readRecordedFixture('openai-chat', 'vercel-ai__openai-text.chunks.txt')).toContain('"choices"');
    expect(await readRecordedFixture('openai-chat', '../openai-chat/NOTICE.md')).toBeUndefined();
    expect(await readRecordedFixture('../fixtures', 'x.json')).toBeUndefined();
    expect(await readRecordedFixture('openai-chat', 'missing.json')).toBeUndefined();
  });
});
