import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROVIDER_FAILURE_CODES_V1 } from '@tokenforge/model-protocol';
import { PROTOCOL_ENGINE_ERROR_CODES_V1, ProtocolEngineErrorV1 } from '@tokenforge/protocol-engine';
import { describe, expect, it } from 'vitest';

const repositoryRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const guides = [
  { name: 'PROTOCOL_ENGINE.md', path: join(repositoryRoot, 'docs', 'guides', 'PROTOCOL_ENGINE.md') },
  { name: 'PROTOCOL_ENGINE.zh-CN.md', path: join(repositoryRoot, 'docs', 'guides', 'PROTOCOL_ENGINE.zh-CN.md') },
].map((guide) => ({ ...guide, text: readFileSync(guide.path, 'utf8') }));

/** The text from the heading that starts with `prefix` to the next heading of the same or a higher level. */
function section(text: string, prefix: string): string {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.startsWith(prefix));
  if (start === -1) throw new Error(`no heading starting with ${prefix}`);
  const level = /^#+/.exec(prefix)?.[0].length ?? 0;
  const end = lines.findIndex((line, index) => index > start && /^#+ /.test(line) && (/^#+/.exec(line)?.[0].length ?? 0) <= level);
  return lines.slice(start, end === -1 ? undefined : end).join('\n');
}

/** The first cell of each table row of a section, and the second. */
function tableRows(text: string): { first: string; second: string }[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const cells = line.split('|').map((cell) => cell.trim());
      return { first: (cells[1] ?? '').replaceAll('`', ''), second: (cells[2] ?? '').replaceAll('`', '') };
    });
}

describe.each(guides)('$name', (guide) => {
  it('lists every engine error code once, with the phase the engine gives it', () => {
    const rows = tableRows(section(guide.text, '### 6.2'));
    const expected = Object.values(PROTOCOL_ENGINE_ERROR_CODES_V1).map((code) => ({ first: code, second: new ProtocolEngineErrorV1(code, 'probe').phase }));
    expect(rows).toEqual(expected);
  });

  it('lists every normalized provider failure code once', () => {
    const codes = tableRows(section(guide.text, '### 6.3')).map((row) => row.first);
    expect(codes).toEqual([...PROVIDER_FAILURE_CODES_V1]);
  });

  it('describes the three async acceptance states', () => {
    expect(tableRows(section(guide.text, '### 6.4')).map((row) => row.first)).toEqual(['accepted', 'not-accepted', 'unknown']);
  });

  it('links every guide example, the engine manual and the translation table', () => {
    const examples = readdirSync(join(repositoryRoot, 'examples', 'guide')).filter((file) => file.endsWith('.ts'));
    expect(examples.length).toBeGreaterThanOrEqual(3);
    for (const example of examples) expect(guide.text).toContain(`](../../examples/guide/${example})`);
    expect(guide.text).toContain('](../../packages/protocol-engine/README');
    expect(guide.text).toContain('](../translation-table.md)');
  });

  it('has relative links that point at files in the repository', () => {
    const targets = [...guide.text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((match) => match[1] as string).filter((target) => !/^[a-z]+:/.test(target));
    expect(targets.length).toBeGreaterThan(10);
    const missing = targets.filter((target) => !existsSync(resolve(dirname(guide.path), target)));
    expect(missing).toEqual([]);
  });
});

describe('the two guides', () => {
  it('have the same structure: sections, diagrams, tables and code blocks', () => {
    const [english, chinese] = guides.map((guide) => ({
      headings: guide.text.split('\n').filter((line) => /^#{2,3} \d/.test(line)).map((line) => /^#+ [\d.]+/.exec(line)?.[0]),
      mermaid: guide.text.split('```mermaid').length - 1,
      fences: guide.text.split('```').length - 1,
      tableRows: guide.text.split('\n').filter((line) => line.startsWith('|')).length,
    }));
    expect(chinese).toEqual(english);
    expect(english?.mermaid).toBe(3);
  });
});
