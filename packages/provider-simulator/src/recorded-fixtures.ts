import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package's own `fixtures/` folder: one folder per protocol family, each with a NOTICE.md naming every file's
 * origin and license. The same path from `src/` and from the bundled `dist/`.
 */
export const FIXTURES_DIRECTORY = fileURLToPath(new URL('../fixtures/', import.meta.url));

/**
 * Reads a recorded fixture of a family folder (`openai-chat`, `kling-video`, ...); `undefined` when it does not exist. The
 * name was checked by the scenario grammar (no separators, no `..`), so it stays inside the folder.
 */
export async function readRecordedFixture(familyFolder: string, fileName: string): Promise<string | undefined> {
  if (!/^[a-z0-9-]+$/.test(familyFolder) || fileName.includes('/') || fileName.includes('..')) return undefined;
  try {
    return await readFile(join(FIXTURES_DIRECTORY, familyFolder, fileName), 'utf8');
  } catch {
    return undefined;
  }
}

/** The non-empty lines of a `.chunks.txt` fixture (one JSON payload per line). */
export function fixtureLines(text: string): string[] {
  return text.split(/\r?\n/).filter((line) => line.trim().length > 0);
}
