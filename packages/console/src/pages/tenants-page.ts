import { adminApi } from '../admin-api.js';
import type { Key, Limits, LimitUse, Tenant } from '../admin-types.js';
import { field, h, replace, table, type Child } from '../dom.js';
import { countOf, listOf, microsOf, money, time } from '../format.js';

function value(form: HTMLFormElement, name: string): string {
  return (form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | null)?.value ?? '';
}

/** The limits a form's fields describe (empty fields are left out). */
function limitsOf(form: HTMLFormElement): Limits {
  const amountMicros = microsOf(value(form, 'budget'));
  const limits: Record<string, unknown> = {
    requestsPerMinute: countOf(value(form, 'rpm')),
    tokensPerMinute: countOf(value(form, 'tpm')),
    concurrentRequests: countOf(value(form, 'concurrent')),
    budget: amountMicros === undefined ? undefined : { amountMicros, currency: value(form, 'currency').toUpperCase() || 'USD', period: value(form, 'period') || 'month' },
  };
  return Object.fromEntries(Object.entries(limits).filter(([, entry]) => entry !== undefined)) as Limits;
}

function limitFields(prefix: string, limits: Limits = {}): Child[] {
  return [
    field('Requests per minute', { name: 'rpm', type: 'number', min: 1, value: limits.requestsPerMinute ?? '', id: `${prefix}-rpm` }),
    field('Tokens per minute', { name: 'tpm', type: 'number', min: 1, value: limits.tokensPerMinute ?? '', id: `${prefix}-tpm` }),
    field('Concurrent requests', { name: 'concurrent', type: 'number', min: 1, value: limits.concurrentRequests ?? '', id: `${prefix}-concurrent` }),
    field('Budget (amount)', { name: 'budget', type: 'text', inputmode: 'decimal', value: limits.budget === undefined ? '' : limits.budget.amountMicros / 1_000_000, id: `${prefix}-budget` }),
    field('Currency', { name: 'currency', type: 'text', value: limits.budget?.currency ?? 'USD', size: 4, id: `${prefix}-currency` }),
    h(
      'label',
      {},
      'Budget period',
      h('select', { name: 'period', id: `${prefix}-period` }, ...(['month', 'day', 'total'] as const).map((period) => h('option', { value: period, selected: (limits.budget?.period ?? 'month') === period }, period))),
    ),
  ];
}

/** A labelled bar: `used` of `limit`, as a progress bar with its numbers in text. */
function meter(label: string, used: number, limit: number | undefined, text: string): Child[] {
  if (limit === undefined) return [h('span', {}, label), h('span', { class: 'muted' }, 'no limit'), h('span', {}, text)];
  const percent = limit === 0 ? 100 : Math.min(100, (used / limit) * 100);
  return [
    h('span', {}, label),
    h('div', { class: `bar${used > limit ? ' over' : ''}`, role: 'progressbar', 'aria-label': label, 'aria-valuemin': 0, 'aria-valuemax': 100, 'aria-valuenow': Math.round(percent), 'aria-valuetext': text }, h('span', { style: `width:${percent}%` })),
    h('span', {}, text),
  ];
}

async function copy(text: string, status: HTMLElement): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = 'Copied.';
  } catch {
    status.textContent = 'Copy failed: select the key and copy it by hand.';
  }
}

/** Tenants and keys: list, create (key shown once), revoke, model access, limits and budgets, spend and limit use. */
export async function renderTenantsPage(main: HTMLElement, notice: (message: string, error?: boolean) => void): Promise<void> {
  const [{ tenants }, { keys }] = await Promise.all([adminApi<{ tenants: Tenant[] }>('GET', '/tenants'), adminApi<{ keys: Key[] }>('GET', '/keys')]);
  const uses = await Promise.all(tenants.map((tenant) => adminApi<LimitUse>('GET', `/tenants/${encodeURIComponent(tenant.id)}/limit-use`)));
  const rerender = (): Promise<void> => renderTenantsPage(main, notice);
  const guarded = (action: () => Promise<void>) => async (event: Event) => {
    event.preventDefault();
    try {
      await action();
    } catch (error) {
      notice((error as Error).message, true);
    }
  };

  const createForm: HTMLFormElement = h(
    'form',
    { class: 'row', 'aria-label': 'Create tenant' },
    field('Tenant id', { name: 'id', required: true, pattern: '[A-Za-z0-9][A-Za-z0-9._\\-]{0,63}', id: 'new-tenant-id' }),
    field('Name', { name: 'name', required: true, id: 'new-tenant-name' }),
    field('Model access', { name: 'models', value: '*', id: 'new-tenant-models' }),
    ...limitFields('new-tenant'),
    h('button', { type: 'submit' }, 'Create tenant'),
  );
  createForm.addEventListener(
    'submit',
    guarded(async () => {
      await adminApi('POST', '/tenants', { id: value(createForm, 'id'), name: value(createForm, 'name'), modelAccess: listOf(value(createForm, 'models')), limits: limitsOf(createForm) });
      notice(`Tenant ${value(createForm, 'id')} created.`);
      await rerender();
    }),
  );

  const sections = tenants.map((tenant, index) => {
    const use = uses[index]!;
    const budget = tenant.limits.budget;
    const tenantKeys = keys.filter((key) => key.tenantId === tenant.id);
    const secret = h('div', { 'aria-live': 'polite' });
    const editForm: HTMLFormElement = h(
      'form',
      { class: 'row', 'aria-label': `Limits of ${tenant.id}` },
      field('Model access', { name: 'models', value: tenant.modelAccess.join(', '), id: `t-${tenant.id}-models` }),
      ...limitFields(`t-${tenant.id}`, tenant.limits),
      h('button', { type: 'submit' }, 'Save limits'),
    );
    editForm.addEventListener(
      'submit',
      guarded(async () => {
        await adminApi('PATCH', `/tenants/${encodeURIComponent(tenant.id)}`, { modelAccess: listOf(value(editForm, 'models')), limits: limitsOf(editForm) });
        notice(`Tenant ${tenant.id} updated.`);
        await rerender();
      }),
    );
    const keyForm: HTMLFormElement = h(
      'form',
      { class: 'row', 'aria-label': `New key for ${tenant.id}` },
      field('Key model access (empty: the tenant’s)', { name: 'models', id: `t-${tenant.id}-key-models` }),
      h('button', { type: 'submit' }, 'Create key'),
    );
    keyForm.addEventListener(
      'submit',
      guarded(async () => {
        const models = listOf(value(keyForm, 'models'));
        const created = await adminApi<{ apiKey: string; key: Key }>('POST', '/keys', { tenantId: tenant.id, ...(models.length === 0 ? {} : { modelAccess: models }) });
        await rerender();
        const copied = h('span', { role: 'status' });
        const target = main.querySelector<HTMLElement>(`[data-secret="${CSS.escape(tenant.id)}"]`);
        if (target !== null)
          replace(
            target,
            h('p', {}, `Key ${created.key.id} created. It is shown only now: copy it.`),
            h('p', { class: 'secret', 'data-api-key': '' }, created.apiKey),
            h('button', { type: 'button', class: 'quiet', onclick: () => void copy(created.apiKey, copied) }, 'Copy key'),
            ' ',
            copied,
          );
      }),
    );
    secret.setAttribute('data-secret', tenant.id);
    const keyRows = tenantKeys.map((key): Child[] => [
      key.id,
      key.displayPrefix,
      time(key.createdAtMs),
      key.revokedAtMs === undefined ? 'active' : `revoked ${time(key.revokedAtMs)}`,
      key.modelAccess?.join(', ') ?? 'tenant’s',
      key.revokedAtMs === undefined
        ? h(
            'button',
            {
              type: 'button',
              class: 'danger',
              'aria-label': `Revoke key ${key.id}`,
              onclick: guarded(async () => {
                await adminApi('POST', `/keys/${encodeURIComponent(key.id)}/revoke`);
                notice(`Key ${key.id} revoked.`);
                await rerender();
              }),
            },
            'Revoke',
          )
        : '',
    ]);
    return h(
      'section',
      { class: 'card', 'aria-labelledby': `tenant-${tenant.id}`, 'data-tenant': tenant.id },
      h('h2', { id: `tenant-${tenant.id}` }, `${tenant.name} (${tenant.id})${tenant.disabled ? ' · disabled' : ''}`),
      h(
        'div',
        { class: 'meters' },
        ...meter(
          `Budget of ${tenant.id}`,
          use.budgetSpentMicros + use.budgetReservedMicros,
          budget?.amountMicros,
          budget === undefined ? money(use.budgetSpentMicros, 'USD') + ' spent' : `${money(use.budgetSpentMicros, budget.currency)} spent of ${money(budget.amountMicros, budget.currency)} per ${budget.period}`,
        ),
        ...meter(`Requests last minute of ${tenant.id}`, use.requestsLastMinute, tenant.limits.requestsPerMinute, `${use.requestsLastMinute} / ${tenant.limits.requestsPerMinute ?? '∞'}`),
        ...meter(`Tokens last minute of ${tenant.id}`, use.tokensLastMinute, tenant.limits.tokensPerMinute, `${use.tokensLastMinute} / ${tenant.limits.tokensPerMinute ?? '∞'}`),
        ...meter(`In flight of ${tenant.id}`, use.inFlight, tenant.limits.concurrentRequests, `${use.inFlight} / ${tenant.limits.concurrentRequests ?? '∞'}`),
      ),
      editForm,
      h('h3', {}, 'Keys'),
      table(`Keys of ${tenant.id}`, ['Id', 'Prefix', 'Created', 'State', 'Model access', 'Action'], keyRows),
      keyForm,
      secret,
    );
  });

  replace(main, h('h1', {}, 'Tenants and keys'), h('section', { class: 'card' }, h('h2', {}, 'New tenant'), createForm), ...(sections.length === 0 ? [h('p', {}, 'No tenants yet.')] : sections));
}
