import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** One stored result asset. */
export interface StoredJobMedia {
  readonly bytes: Uint8Array;
  readonly contentType: string;
}

/**
 * Where copies of job results are kept so clients can fetch them after the provider's URL expired. A small port:
 * the directory store below is the default; an S3-compatible store implements the same two verbs.
 */
export interface JobMediaStore {
  /** Stores `bytes` under `key` (a path of `[A-Za-z0-9_-]` segments), replacing any earlier copy. */
  put(key: string, media: StoredJobMedia): Promise<void>;
  /** The copy under `key`, or `undefined` when there is none. */
  get(key: string): Promise<StoredJobMedia | undefined>;
}

const KEY = /^[A-Za-z0-9_-]{1,128}(?:\/[A-Za-z0-9_-]{1,128}){0,4}$/;

/**
 * A {@link JobMediaStore} in a directory (created mode 0700): each asset is a file (0600) beside a `.type` file
 * holding its content type, written to a temporary name then renamed, so a reader never sees half a file.
 */
export function createDirectoryJobMediaStore(directory: string): JobMediaStore {
  const pathOf = (key: string): string => {
    if (!KEY.test(key)) throw new Error('a media key is one to five segments of letters, digits, _ and -');
    return join(directory, key);
  };
  return {
    async put(key, media) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      const temporary = `${path}.${process.pid}.partial`;
      await writeFile(temporary, media.bytes, { mode: 0o600 });
      await writeFile(`${path}.type`, media.contentType, { mode: 0o600 });
      await rename(temporary, path);
    },
    async get(key) {
      const path = pathOf(key);
      try {
        const [bytes, contentType] = await Promise.all([readFile(path), readFile(`${path}.type`, 'utf8')]);
        return { bytes, contentType };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
  };
}
