import { adminApi } from '../admin-api.js';
import type { Target, Targets } from '../admin-types.js';
import { h, replace, table, type Child } from '../dom.js';
import { time } from '../format.js';

/** How often the targets page asks again (milliseconds). */
export const TARGETS_REFRESH_MS = 5_000;

const ms = (value: number | undefined): string => (value === undefined ? '' : `${value} ms`);

const HEADERS = ['Target', 'Provider', 'Family', 'State', 'Cooldown left', 'In flight', 'Attempts (5 min)', 'Error rate', 'p50', 'p90', 'p99', 'Pool in use', 'Waiting'];

function row(target: Target): Child[] {
  const recent = target.recent;
  const pool = target.pool;
  return [
    target.ref,
    target.provider,
    target.family,
    target.state ?? 'not routed',
    target.cooldownRemainingMs === undefined || target.cooldownRemainingMs === 0 ? '' : ms(target.cooldownRemainingMs),
    target.inFlight === undefined ? '' : String(target.inFlight),
    recent === undefined ? '' : String(recent.attempts),
    recent === undefined || recent.attempts === 0 ? '' : `${(recent.errorRate * 100).toFixed(1)}%`,
    ms(recent?.latencyP50Ms),
    ms(recent?.latencyP90Ms),
    ms(recent?.latencyP99Ms),
    pool === undefined ? '' : `${pool.inUse} of ${pool.connections}`,
    pool === undefined ? '' : String(pool.waiting),
  ];
}

/** Health per target from `/admin/v1/targets`, refreshed live while the page is open; answers a stop function. */
export function renderTargetsPage(main: HTMLElement, notice: (message: string, error?: boolean) => void): () => void {
  const status = h('p', { role: 'status', class: 'status' }, 'Loading…');
  const holder = h('div');
  replace(
    main,
    h('h1', {}, 'Targets'),
    h('p', { class: 'muted' }, 'Each instance keeps its own view: health, cooldown, error rate and latency over the last 5 minutes, and its upstream connection pool.'),
    status,
    holder,
  );
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const load = async (): Promise<void> => {
    try {
      const answer = await adminApi<Targets>('GET', '/targets');
      replace(holder, table(`Targets of instance ${answer.instance}`, HEADERS, answer.targets.map(row)));
      status.textContent = `Updated ${time(Date.now())} from instance ${answer.instance}; refreshed every ${TARGETS_REFRESH_MS / 1000} s.`;
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
