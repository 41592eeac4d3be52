import { adminApi } from '../admin-api.js';
import type { RequestAttempt, RequestRecord, Tenant } from '../admin-types.js';
import { field, h, replace, table } from '../dom.js';
import { time } from '../format.js';

const ms = (value: number | undefined): string => (value === undefined ? '' : `${value} ms`);

/** One request's attempts: target, family, outcome, the diagnostic for operators, and timings. */
function attemptsTable(record: RequestRecord): HTMLTableElement {
  return table(
    `Attempts of request ${record.requestId}`,
    ['#', 'Target', 'Provider', 'Family', 'Outcome', 'Diagnostic', 'Started', 'First byte', 'Duration'],
    record.attempts.map((attempt: RequestAttempt, index) => [
      String(attempt.attempt ?? index + 1),
      attempt.targetRef,
      attempt.provider,
      attempt.family ?? '',
      attempt.outcome,
      attempt.diagnostic ?? '',
      attempt.startedAtMs === undefined ? '' : time(attempt.startedAtMs),
      ms(attempt.timeToFirstByteMs),
      ms(attempt.durationMs),
    ]),
  );
}

/** The link to one request's attempts; its name starts with its visible text (`3 attempts of request …`). */
function attemptsLink(record: RequestRecord, href: string): HTMLAnchorElement {
  const text = `${record.attempts.length} attempt${record.attempts.length === 1 ? '' : 's'}`;
  return h('a', { href, 'aria-label': `${text} of request ${record.requestId}` }, text);
}

/** One request: its facts, then each attempt in full width. */
function requestDetail(record: RequestRecord, back: string): HTMLElement {
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'request-detail' },
    h('h2', { id: 'request-detail' }, `Request ${record.requestId}`),
    h(
      'p',
      {},
      `${time(record.atMs)} · ${record.route} · ${record.publicModel ?? 'no model'} · ${record.tenantId ?? 'no tenant'} · status ${record.status} · ${record.outcome} · ${record.totalMs} ms`,
      record.timeToFirstByteMs === undefined ? '' : ` (first byte ${record.timeToFirstByteMs} ms)`,
    ),
    record.attempts.length === 0 ? h('p', {}, 'No attempt: refused before routing.') : attemptsTable(record),
    h('p', {}, h('a', { href: back }, 'Close')),
  );
}

/** Recent request records, filterable by tenant, model, outcome and status; one request's attempts in full. */
export async function renderRequestsPage(main: HTMLElement, query: URLSearchParams): Promise<void> {
  const tenantId = query.get('tenantId') ?? '';
  const model = query.get('model') ?? '';
  const outcome = query.get('outcome') ?? '';
  const status = query.get('status') ?? '';
  const selected = query.get('request') ?? '';
  const listQuery = new URLSearchParams(query);
  listQuery.delete('request');
  const hashWith = (requestId: string): string => {
    const next = new URLSearchParams(listQuery);
    next.set('request', requestId);
    return `#/requests?${next}`;
  };
  const [{ requests }, { tenants }] = await Promise.all([
    adminApi<{ requests: RequestRecord[] }>('GET', `/requests?limit=200${tenantId === '' ? '' : `&tenantId=${encodeURIComponent(tenantId)}`}`),
    adminApi<{ tenants: Tenant[] }>('GET', '/tenants'),
  ]);
  const shown = requests.filter(
    (record) => (model === '' || record.publicModel === model) && (outcome === '' || record.outcome === outcome) && (status === '' || String(record.status) === status),
  );
  const outcomes = [...new Set(requests.map((record) => record.outcome))].sort();
  const form: HTMLFormElement = h(
    'form',
    { class: 'row', 'aria-label': 'Request filters' },
    h('label', {}, 'Tenant', h('select', { name: 'tenantId', id: 'requests-tenant' }, h('option', { value: '' }, 'all'), ...tenants.map((tenant) => h('option', { value: tenant.id, selected: tenant.id === tenantId }, tenant.id)))),
    field('Model', { name: 'model', value: model, id: 'requests-model' }),
    h('label', {}, 'Outcome', h('select', { name: 'outcome', id: 'requests-outcome' }, h('option', { value: '' }, 'all'), ...outcomes.map((name) => h('option', { value: name, selected: name === outcome }, name)))),
    field('HTTP status', { name: 'status', value: status, inputmode: 'numeric', id: 'requests-status' }),
    h('button', { type: 'submit' }, 'Filter'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const next = new URLSearchParams();
    for (const [name, entry] of new FormData(form)) if (entry !== '') next.set(name, String(entry));
    location.hash = `#/requests?${next}`;
  });
  const rows = shown.map((record) => [
    time(record.atMs),
    record.requestId,
    record.tenantId ?? '',
    record.keyId ?? '',
    record.publicModel ?? '',
    record.route,
    String(record.status),
    record.outcome,
    `${record.totalMs} ms${record.timeToFirstByteMs === undefined ? '' : ` (first byte ${record.timeToFirstByteMs} ms)`}`,
    attemptsLink(record, hashWith(record.requestId)),
  ]);
  // A request older than the list (or of another tenant) is fetched by its id.
  const detail =
    selected === ''
      ? undefined
      : (requests.find((record) => record.requestId === selected) ??
        (await adminApi<{ request: RequestRecord }>('GET', `/requests/${encodeURIComponent(selected)}`).then(
          (answer) => answer.request,
          () => undefined,
        )));
  replace(
    main,
    h('h1', {}, 'Requests'),
    form,
    h('p', { class: 'muted' }, 'Request records hold facts only: no prompt or output is ever stored.'),
    detail === undefined ? null : requestDetail(detail, `#/requests?${listQuery}`),
    table(`${shown.length} of the ${requests.length} most recent requests`, ['Time', 'Request', 'Tenant', 'Key', 'Model', 'Route', 'Status', 'Outcome', 'Timing', 'Attempts'], rows),
  );
}
