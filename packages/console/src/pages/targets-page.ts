import { adminApi } from '../admin-api.js';
import type { TargetView } from '../admin-types.js';
import { h, replace, table } from '../dom.js';
import { time } from '../format.js';

/** How often the targets page asks again (milliseconds). */
export const TARGETS_REFRESH_MS = 5_000;

function cell(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** Health per target from `/admin/v1/targets`, refreshed live while the page is open; answers a stop function. */
export function renderTargetsPage(main: HTMLElement, notice: (message: string, error?: boolean) => void): () => void {
  const status = h('p', { role: 'status', class: 'status' }, 'Loading…');
  const holder = h('div');
  replace(main, h('h1', {}, 'Targets'), status, holder);
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const load = async (): Promise<void> => {
    try {
      const answer = await adminApi<{ targets: TargetView[]; instance?: string }>('GET', '/targets');
      const columns = [...new Set(answer.targets.flatMap((target) => Object.keys(target)))];
      replace(holder, table(`Targets${answer.instance === undefined ? '' : ` of instance ${answer.instance}`}`, columns, answer.targets.map((target) => columns.map((name) => cell(target[name])))));
      status.textContent = `Updated ${time(Date.now())}${answer.instance === undefined ? '' : ` from instance ${answer.instance}`}; refreshed every ${TARGETS_REFRESH_MS / 1000} s.`;
    } catch (error) {
      notice((error as Error).message, true);
    }
    if (!stopped) timer = setTimeout(() => void load(), TARGETS_REFRESH_MS);
  };
  void load();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
