import { adminApi } from '../admin-api.js';
import type { Tenant, TrackedJob } from '../admin-types.js';
import { h, replace, table } from '../dom.js';
import { money, time } from '../format.js';

/** A tenant's tracked async jobs, grouped by state, with their settlement. */
export async function renderJobsPage(main: HTMLElement, query: URLSearchParams): Promise<void> {
  const { tenants } = await adminApi<{ tenants: Tenant[] }>('GET', '/tenants');
  const tenantId = query.get('tenantId') ?? tenants[0]?.id ?? '';
  const select: HTMLSelectElement = h('select', { id: 'jobs-tenant' }, ...tenants.map((tenant) => h('option', { value: tenant.id, selected: tenant.id === tenantId }, tenant.id)));
  select.addEventListener('change', () => (location.hash = `#/jobs?tenantId=${encodeURIComponent(select.value)}`));
  const picker = h('form', { class: 'row', 'aria-label': 'Jobs of a tenant' }, h('label', {}, 'Tenant', select));
  if (tenantId === '') {
    replace(main, h('h1', {}, 'Jobs'), h('p', {}, 'No tenants yet.'));
    return;
  }
  const { jobs } = await adminApi<{ jobs: TrackedJob[] }>('GET', `/jobs?tenantId=${encodeURIComponent(tenantId)}&limit=500`);
  const states = [...new Set(jobs.map((job) => job.state))].sort();
  replace(
    main,
    h('h1', {}, 'Jobs'),
    picker,
    jobs.length === 0 ? h('p', {}, `No tracked jobs for ${tenantId}.`) : h('p', {}, states.map((state) => `${state}: ${jobs.filter((job) => job.state === state).length}`).join(' · ')),
    ...states.map((state) =>
      h(
        'section',
        { class: 'card' },
        h('h2', {}, state),
        table(
          `Jobs of ${tenantId} in state ${state}`,
          ['Created', 'Job', 'Model', 'Target', 'Key', 'Reserved', 'Settled'],
          jobs.filter((job) => job.state === state).map((job) => [time(job.createdAtMs), job.providerJobId, job.publicModel, job.targetRef, job.keyId, money(job.reservedMicros, job.currency), job.settledAtMs === undefined ? 'open' : time(job.settledAtMs)]),
        ),
      ),
    ),
  );
}
