import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { hostname } from 'node:os';
import { Hono, type Context } from 'hono';
import type { z } from 'zod';
import { consoleSessionAccess } from '../console/console-session.js';
import type { GatewayGovernance } from '../governance/wiring/gateway-governance.js';
import { clientKeyDisplayPrefixV1, generateClientKeyV1 } from '../governance/v1/client-key-v1.js';
import { isGovernanceStoreErrorV1 } from '../governance/v1/governance-store-error-v1.js';
import type { ClientKeyRecordV1, SpendQueryV1, TenantRecordV1 } from '../governance/v1/governance-store-v1.js';
import { describeTargets } from '../operations/describe-targets.js';
import type { GatewayRuntime } from '../runtime/gateway-runtime.js';
import { adminJobReplayV1Schema, adminKeyCreateV1Schema, adminKeyUpdateV1Schema, adminTenantCreateV1Schema, adminTenantUpdateV1Schema } from './gateway-admin-api-v1.js';

/** The actor the audit trail names for changes made with the admin key. */
export const ADMIN_ACTOR = 'admin';

type AdminErrorCode = 'admin-unauthorized' | 'csrf-token-invalid' | 'invalid-body' | 'not-found' | 'conflict' | 'governance-off' | 'governance-unavailable' | 'webhooks-off';
const STATUS: Readonly<Record<AdminErrorCode, 400 | 401 | 403 | 404 | 409 | 503>> = {
  'webhooks-off': 404,
  'admin-unauthorized': 401,
  'csrf-token-invalid': 403,
  'invalid-body': 400,
  'not-found': 404,
  conflict: 409,
  'governance-off': 404,
  'governance-unavailable': 503,
};

function adminError(c: Context, code: AdminErrorCode, message: string, fields?: readonly string[]): Response {
  return c.json({ error: { code, message, ...(fields === undefined ? {} : { fields }) } }, STATUS[code]);
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** `T` with `undefined` taken out of every optional field, nested objects included (zod outputs carry it). */
type Defined<T> = T extends readonly unknown[] ? T : T extends object ? { [K in keyof T]: Defined<Exclude<T[K], undefined>> } : T;

/** Drops fields whose value is `undefined`, in nested plain objects too. */
function withoutUndefined<T extends object>(value: T): Defined<T> {
  const entries = Object.entries(value)
    .filter(([, entry]) => entry !== undefined)
    .map(([name, entry]) => [name, entry !== null && typeof entry === 'object' && !Array.isArray(entry) ? withoutUndefined(entry as object) : entry]);
  return Object.fromEntries(entries) as Defined<T>;
}

/** A key as the admin API shows it: never its digest. */
function keyView(key: ClientKeyRecordV1): Record<string, unknown> {
  const { digest: _digest, ...view } = key;
  return withoutUndefined(view);
}

function tenantView(tenant: TenantRecordV1): Record<string, unknown> {
  return withoutUndefined({ ...tenant, limits: withoutUndefined(tenant.limits) });
}

async function body<S extends z.ZodType>(c: Context, schema: S): Promise<{ ok: true; value: z.output<S> } | { ok: false; response: Response }> {
  let raw: unknown;
  try {
    raw = await c.req.json();
  } catch {
    return { ok: false, response: adminError(c, 'invalid-body', 'The body is not JSON.') };
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) return { ok: false, response: adminError(c, 'invalid-body', 'The body does not match the admin API schema.', parsed.error.issues.map((issue) => issue.path.join('.'))) };
  return { ok: true, value: parsed.data };
}

function limitOf(c: Context, fallback: number): number {
  const value = Number(c.req.query('limit') ?? fallback);
  return Number.isInteger(value) && value > 0 ? Math.min(value, 1000) : fallback;
}

/**
 * `/admin/v1`: tenants, keys (shown once), model access, limits and budgets; spend, ledger, request records, the
 * audit trail, current limit use, tracked jobs, and this instance's targets. Authenticated by the admin key
 * (`Authorization: Bearer`) or a console session cookie (with its CSRF token on every change), never a tenant key. Each change answers the governance version it created, and this
 * instance applies it before answering. Without governance every route answers 404 `governance-off`.
 */
export function registerAdminRoutes(app: Hono, runtime: GatewayRuntime): void {
  const admin = new Hono();
  let governance: GatewayGovernance;
  admin.use('*', async (c, next) => {
    if (runtime.governance === undefined) return adminError(c, 'governance-off', 'Governance is off on this gateway.');
    governance = runtime.governance;
    const presented = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '')?.[1] ?? '';
    if (!timingSafeEqual(digest(presented), digest(governance.adminKey))) {
      const session = await consoleSessionAccess(c, governance.store);
      if (session === 'csrf') return adminError(c, 'csrf-token-invalid', 'A change made with a console session needs its CSRF token in X-CSRF-Token.');
      if (session === 'none') return adminError(c, 'admin-unauthorized', 'The admin key is missing or wrong.');
    }
    await next();
    return undefined;
  });
  admin.onError((error, c) => {
    if (isGovernanceStoreErrorV1(error) && error.code === 'conflict') return adminError(c, 'conflict', 'The id exists.');
    if (isGovernanceStoreErrorV1(error) && error.code === 'not-found') return adminError(c, 'not-found', 'A referenced record does not exist.');
    throw error;
  });
  const applied = async (version: number): Promise<number> => {
    await governance.refresh();
    return version;
  };

  admin.post('/tenants', async (c) => {
    const parsed = await body(c, adminTenantCreateV1Schema);
    if (!parsed.ok) return parsed.response;
    const { id, name, modelAccess, limits, disabled } = withoutUndefined(parsed.value);
    const change = await governance.store.admin.createTenant({ id, name, modelAccess: modelAccess ?? ['*'], limits: limits ?? {}, disabled: disabled ?? false }, ADMIN_ACTOR);
    return c.json({ version: await applied(change.version), tenant: tenantView(change.value) }, 201);
  });
  admin.get('/tenants', async (c) => c.json({ tenants: (await governance.store.admin.listTenants()).map(tenantView) }));
  admin.patch('/tenants/:id', async (c) => {
    const parsed = await body(c, adminTenantUpdateV1Schema);
    if (!parsed.ok) return parsed.response;
    const change = await governance.store.admin.updateTenant(c.req.param('id'), withoutUndefined(parsed.value), ADMIN_ACTOR);
    if (change === undefined) return adminError(c, 'not-found', 'No such tenant.');
    return c.json({ version: await applied(change.version), tenant: tenantView(change.value) });
  });
  admin.get('/tenants/:id/webhook-secret', async (c) => {
    const tenantId = c.req.param('id');
    const secret = runtime.jobWorkers?.webhookSecretOf(tenantId);
    if (secret === undefined) return adminError(c, 'webhooks-off', 'This gateway sends no webhooks (no webhook master key).');
    if (!(await governance.store.admin.listTenants()).some((tenant) => tenant.id === tenantId)) return adminError(c, 'not-found', 'No such tenant.');
    return c.json({ tenantId, secret });
  });
  admin.get('/tenants/:id/limit-use', async (c) => c.json(await governance.store.admin.limitUse(c.req.param('id'))));

  admin.post('/keys', async (c) => {
    const parsed = await body(c, adminKeyCreateV1Schema);
    if (!parsed.ok) return parsed.response;
    const apiKey = generateClientKeyV1();
    const { tenantId, modelAccess, limits, expiresAtMs } = parsed.value;
    const change = await governance.store.admin.createKey(
      withoutUndefined({ id: `k-${randomBytes(8).toString('hex')}`, tenantId, digest: governance.digestOf(apiKey), displayPrefix: clientKeyDisplayPrefixV1(apiKey), modelAccess, limits, expiresAtMs }),
      ADMIN_ACTOR,
    );
    return c.json({ version: await applied(change.version), key: keyView(change.value), apiKey }, 201);
  });
  admin.get('/keys', async (c) => c.json({ keys: (await governance.store.admin.listKeys(c.req.query('tenantId'))).map(keyView) }));
  admin.patch('/keys/:id', async (c) => {
    const parsed = await body(c, adminKeyUpdateV1Schema);
    if (!parsed.ok) return parsed.response;
    const change = await governance.store.admin.updateKey(c.req.param('id'), withoutUndefined(parsed.value), ADMIN_ACTOR);
    if (change === undefined) return adminError(c, 'not-found', 'No such key.');
    return c.json({ version: await applied(change.version), key: keyView(change.value) });
  });
  admin.post('/keys/:id/revoke', async (c) => {
    const change = await governance.store.admin.revokeKey(c.req.param('id'), ADMIN_ACTOR);
    if (change === undefined) return adminError(c, 'not-found', 'No such key.');
    return c.json({ version: await applied(change.version), key: keyView(change.value) });
  });

  admin.get('/spend', async (c) => {
    const groupBy = (c.req.query('groupBy') ?? 'tenant').split(',').filter((name): name is SpendQueryV1['groupBy'][number] => ['tenant', 'key', 'model', 'day'].includes(name));
    const query: SpendQueryV1 = withoutUndefined({
      tenantId: c.req.query('tenantId'),
      keyId: c.req.query('keyId'),
      publicModel: c.req.query('model'),
      fromDay: c.req.query('from'),
      toDay: c.req.query('to'),
      groupBy,
    });
    return c.json({ groups: await governance.store.admin.spend(query) });
  });
  admin.get('/ledger', async (c) =>
    c.json({ rows: await governance.store.admin.ledger(withoutUndefined({ tenantId: c.req.query('tenantId'), keyId: c.req.query('keyId'), limit: limitOf(c, 100) })) }),
  );
  admin.get('/requests', async (c) => c.json({ requests: await governance.store.admin.requests(withoutUndefined({ tenantId: c.req.query('tenantId'), limit: limitOf(c, 100) })) }));
  admin.get('/requests/:id', async (c) => {
    const record = await governance.store.admin.request(c.req.param('id'));
    return record === undefined ? adminError(c, 'not-found', 'No such request record (or it is past its retention).') : c.json({ request: record });
  });
  admin.get('/audit', async (c) => c.json({ entries: await governance.store.admin.audit(limitOf(c, 100)) }));
  admin.get('/jobs', async (c) => {
    const tenantId = c.req.query('tenantId');
    if (tenantId === undefined) return adminError(c, 'invalid-body', 'The tenantId query parameter is required.', ['tenantId']);
    return c.json({ jobs: await governance.store.listJobs(tenantId, withoutUndefined({ targetRef: c.req.query('target'), limit: limitOf(c, 100) })) });
  });
  admin.get('/jobs/deliveries', async (c) => {
    const [tenantId, target, providerJobId] = [c.req.query('tenantId'), c.req.query('target'), c.req.query('providerJobId')];
    if (tenantId === undefined || target === undefined || providerJobId === undefined) {
      return adminError(c, 'invalid-body', 'The tenantId, target and providerJobId query parameters are required.', ['tenantId', 'target', 'providerJobId'].filter((name) => c.req.query(name) === undefined));
    }
    const job = await governance.store.findJob(tenantId, target, providerJobId);
    if (job === undefined) return adminError(c, 'not-found', 'No such tracked job.');
    return c.json(withoutUndefined({ callbackUrl: job.callbackUrl, deliveries: (job.deliveries ?? []).map((delivery) => withoutUndefined({ ...delivery })) }));
  });
  admin.post('/jobs/replay', async (c) => {
    const parsed = await body(c, adminJobReplayV1Schema);
    if (!parsed.ok) return parsed.response;
    const webhooks = runtime.jobWorkers?.webhooks;
    if (webhooks === undefined) return adminError(c, 'webhooks-off', 'This gateway sends no webhooks (no webhook master key).');
    const job = await governance.store.findJob(parsed.value.tenantId, parsed.value.target, parsed.value.providerJobId);
    if (job === undefined) return adminError(c, 'not-found', 'No such tracked job.');
    const replayed = webhooks.replay(job, parsed.value.eventId);
    if (replayed === 'no-callback') return adminError(c, 'conflict', 'The job has no callback URL.');
    if (replayed === 'unknown-event') return adminError(c, 'not-found', 'No such event in the job\'s delivery log.');
    return c.json(replayed, 202);
  });
  // This instance's view of its targets: catalogue facts, and where routing runs, health, cooldown, in-flight
  // requests, the last 5 minutes' error rate and latency percentiles, and upstream pool use, labelled with the
  // instance (each instance keeps its own cooldown state and pools).
  admin.get('/targets', (c) => {
    const report = runtime.router === undefined ? undefined : describeTargets(runtime.router);
    const health = new Map((report?.targets ?? []).map((entry) => [entry.ref, entry]));
    return c.json({
      instance: report?.instance ?? `${hostname()}:${process.pid}`,
      targets: [...runtime.catalogue.targets.values()].map((target) => {
        const state = health.get(target.ref);
        return withoutUndefined({
          ref: target.ref,
          provider: target.provider,
          family: target.family,
          execution: target.execution,
          priceVersion: target.price?.version,
          state: state?.state,
          recentFailures: state?.recentFailures,
          cooldownRemainingMs: state?.cooldownRemainingMs,
          inFlight: state?.inFlight,
          latencyEwmaMs: state?.latencyEwmaMs,
          recent: state?.recent,
          pool: runtime.catalogue.transportOf?.(target)?.poolUse(),
        });
      }),
    });
  });
  admin.get('/version', async (c) => c.json({ appliedVersion: governance.appliedVersion, storeVersion: await governance.store.currentVersion() }));
  app.route('/admin/v1', admin);
}
