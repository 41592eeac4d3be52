import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';

/**
 * The executable's path: as given when it holds a slash, else the first executable match on `PATH` (the child's,
 * not the gateway's). `undefined` when there is none.
 */
export async function resolveExecutable(executable: string, path: string | undefined): Promise<string | undefined> {
  const candidates = executable.includes('/')
    ? [executable]
    : (path ?? '').split(delimiter).filter((folder) => isAbsolute(folder)).map((folder) => join(folder, executable));
  for (const candidate of candidates) {
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}
