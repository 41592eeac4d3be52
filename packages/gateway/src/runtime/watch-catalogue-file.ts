import { watch } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';

/**
 * Calls `onChange` once a change of the catalogue file has settled (150 ms without another). Watches the folder,
 * so a file an editor or a secret mount replaces (rename over it) is still seen. The watcher does not keep the
 * process alive.
 */
export function watchCatalogueFile(path: string, onChange: () => void): () => void {
  const file = basename(path);
  let timer: NodeJS.Timeout | undefined;
  const watcher = watch(dirname(resolve(path)), { persistent: false }, (_event, name) => {
    if (name !== null && name !== file) return;
    clearTimeout(timer);
    timer = setTimeout(onChange, 150);
  });
  return () => {
    clearTimeout(timer);
    watcher.close();
  };
}
