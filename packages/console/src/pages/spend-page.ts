import { adminApi } from '../admin-api.js';
import type { SpendGroup, Tenant } from '../admin-types.js';
import { barChart } from '../bar-chart.js';
import { field, h, replace, table } from '../dom.js';
import { money, toCsv } from '../format.js';

type Grouping = 'tenant' | 'key' | 'model' | 'day';
const LABEL: Readonly<Record<Grouping, (group: SpendGroup) => string>> = {
  tenant: (group) => group.tenantId ?? '',
  key: (group) => group.keyId ?? '',
  model: (group) => group.publicModel ?? '',
  day: (group) => group.day ?? '',
};

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Spend by tenant, key, model or day over a range: a chart, a table and a CSV export. */
export async function renderSpendPage(main: HTMLElement, query: URLSearchParams): Promise<void> {
  const groupBy = (['tenant', 'key', 'model', 'day'] as const).find((name) => name === query.get('groupBy')) ?? 'tenant';
  const from = query.get('from') ?? isoDay(Date.now() - 29 * 86_400_000);
  const to = query.get('to') ?? isoDay(Date.now());
  const tenantId = query.get('tenantId') ?? '';
  const parameters = new URLSearchParams({ groupBy, from, to, ...(tenantId === '' ? {} : { tenantId }) });
  const [{ groups }, { tenants }] = await Promise.all([adminApi<{ groups: SpendGroup[] }>('GET', `/spend?${parameters}`), adminApi<{ tenants: Tenant[] }>('GET', '/tenants')]);

  const form: HTMLFormElement = h(
    'form',
    { class: 'row', 'aria-label': 'Spend range' },
    field('From', { type: 'date', name: 'from', value: from, id: 'spend-from' }),
    field('To', { type: 'date', name: 'to', value: to, id: 'spend-to' }),
    h('label', {}, 'Group by', h('select', { name: 'groupBy', id: 'spend-group' }, ...(['tenant', 'key', 'model', 'day'] as const).map((name) => h('option', { value: name, selected: name === groupBy }, name)))),
    h('label', {}, 'Tenant', h('select', { name: 'tenantId', id: 'spend-tenant' }, h('option', { value: '' }, 'all'), ...tenants.map((tenant) => h('option', { value: tenant.id, selected: tenant.id === tenantId }, tenant.id)))),
    h('button', { type: 'submit' }, 'Show'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const next = new URLSearchParams();
    for (const [name, entry] of new FormData(form)) if (entry !== '') next.set(name, String(entry));
    location.hash = `#/spend?${next}`;
  });

  const headers = [groupBy, 'currency', 'cost', 'attempts', 'input tokens', 'output tokens'];
  const rows = groups.map((group) => [LABEL[groupBy](group), group.currency, (group.costMicros / 1_000_000).toFixed(6), group.attempts, group.inputTokens, group.outputTokens] as const);
  const csv = URL.createObjectURL(new Blob([toCsv(headers, rows)], { type: 'text/csv' }));
  replace(
    main,
    h('h1', {}, 'Spend'),
    form,
    groups.length === 0
      ? h('p', {}, 'No spend in this range.')
      : barChart(
          `Spend by ${groupBy}, ${from} to ${to}`,
          groups.map((group) => ({ label: `${LABEL[groupBy](group)} ${group.currency}`, value: group.costMicros, text: money(group.costMicros, group.currency) })),
        ),
    table(`Spend by ${groupBy}, ${from} to ${to}`, headers, rows.map((row) => [...row])),
    h('p', {}, h('a', { href: csv, download: `spend-by-${groupBy}-${from}-${to}.csv` }, 'Download CSV')),
  );
}
