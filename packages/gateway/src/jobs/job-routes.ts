import { randomBytes, randomUUID } from 'node:crypto';
import { PROVIDER_FAILURE_CODES_V1, taskEnvelopeV2Schema, type ProviderAsyncJobSnapshotV2, type ProviderFailureCodeV1, type TaskEnvelopeV2 } from '@tokenforge/model-protocol';
import { isProtocolEngineErrorV1 } from '@tokenforge/protocol-engine';
import type { Context, Hono } from 'hono';
import { readLimitedBody } from '../http/read-limited-body.js';
import { logRequest, type OperatorLogAttempt } from '../operations/operator-log.js';
import { recordJobRequest } from '../telemetry/record-job-request.js';
import type { GatewayRuntime } from '../runtime/gateway-runtime.js';
import type { RuntimeTarget } from '../runtime/resolve-catalogue.js';
import { withAttemptId } from '../governance/wiring/attempt-id-header.js';
import type { GovernanceIdentityV1 as GovernancePrincipal } from '../governance/v1/governance-runtime-v1.js';
import { RequestMetering, type AttemptEnding, type AttemptMeter } from '../governance/wiring/request-metering.js';
import { reservationFactsOf } from '../governance/wiring/reservation-facts.js';
import { TERMINAL_JOB_STATES, trackedJobSettlement } from '../governance/wiring/settle-tracked-job.js';
import type { RuntimeModel } from '../runtime/resolve-catalogue.js';
import { admitStage } from '../stages/admit-stage.js';
import { authenticateStage, type AuthenticatedClient } from '../stages/authenticate-stage.js';
import { checkCallbackUrl } from './webhooks/callback-url-policy.js';
import { gatewayJobCreateRequestV2Schema, gatewayJobListQueryV2Schema, type GatewayJobListV2, type GatewayJobV2 } from './gateway-jobs-api-v2.js';
import { isoSeconds, trackedJobViewV1, trackedJobViewV2 } from './tracked-job-view.js';
import { decodeJobListCursor, encodeJobListCursor } from './job-list-cursor.js';
import {
  gatewayJobCreateRequestV1Schema,
  gatewayJobIssuesOf,
  type GatewayJobCancelV1,
  type GatewayJobErrorCodeV1,
  type GatewayJobErrorV1,
  type GatewayJobIssueV1,
  type GatewayJobListV1,
  type GatewayJobV1,
} from './gateway-jobs-api-v1.js';
import { ownerPrefix, signJobHandle, verifyJobHandle, type JobHandleClaims } from './job-handle.js';
import { readTrackedJob } from './poller/read-tracked-job.js';
import type { TrackedJobQueryV1, TrackedJobV1 } from '../governance/v1/governance-store-v1.js';
import { recoveryWindow } from './recovery-window.js';

type ErrorDetails = Omit<GatewayJobErrorV1['error'], 'code' | 'message'>;

/** The jobs API error envelope (`gatewayJobErrorV1Schema`): `{ error: { code, message, ...details } }`. */
function jobError(c: Context, status: number, code: GatewayJobErrorCodeV1, message: string, details: ErrorDetails = {}): Response {
  const body: GatewayJobErrorV1 = { error: { code, message, ...details } };
  return c.json(body, status as 400);
}

/** An `invalid-request` naming every problem; `path` repeats the first one's. */
function invalidRequest(c: Context, message: string, issues: readonly GatewayJobIssueV1[]): Response {
  const [first] = issues;
  return jobError(c, 400, 'invalid-request', message, first === undefined ? {} : { path: first.path, issues: [...issues] });
}

const iso = isoSeconds;

function jobView(snapshot: ProviderAsyncJobSnapshotV2, handle: string, model: string, prefix: string): GatewayJobV1 {
  return {
    id: handle,
    object: 'job',
    model,
    status: snapshot.state,
    ...(snapshot.progress === undefined ? {} : { progress: snapshot.progress }),
    ...(snapshot.createdAt === undefined ? {} : { createdAt: snapshot.createdAt }),
    ...(snapshot.updatedAt === undefined ? {} : { updatedAt: snapshot.updatedAt }),
    ...(snapshot.finishedAt === undefined ? {} : { finishedAt: snapshot.finishedAt }),
    ...(snapshot.idempotencyKey?.startsWith(prefix) === true ? { idempotencyKey: snapshot.idempotencyKey.slice(prefix.length) } : {}),
    ...(snapshot.media === undefined ? {} : { media: snapshot.media.map((item) => ({ type: item.type, url: item.url, ...(item.durationSeconds === undefined ? {} : { durationSeconds: item.durationSeconds }) })) }),
    ...(snapshot.failure === undefined ? {} : { failure: { code: snapshot.failure.code } }),
    ...(snapshot.usage === undefined ? {} : { usage: snapshot.usage }),
  };
}

const modelOfTarget = (ref: string): string => ref.slice(0, ref.lastIndexOf('#'));

/**
 * The gateway-native async jobs API over `engine.execute` and `engine.jobs.*`, in two versions side by side:
 * `POST /v{1,2}/jobs` (create), `GET /v{1,2}/jobs/{id}`, `GET /v{1,2}/jobs` (the caller's jobs), `POST
 * /v{1,2}/jobs/{id}/cancel`. Version 2 takes a callback URL at create and answers version 2 bodies (media expiry,
 * last observation, delivery log, list filters and paging); version 1 answers exactly what it always did. Job ids
 * are signed, self-contained handles (see job-handle.ts), valid on both; bearer client keys.
 */
export function registerJobRoutes(app: Hono, runtime: GatewayRuntime): void {
  registerJobRoutesOf(app, runtime, 1);
  registerJobRoutesOf(app, runtime, 2);
}

function registerJobRoutesOf(app: Hono, runtime: GatewayRuntime, version: 1 | 2): void {
  const base = `/v${version}/jobs`;
  const signingKey = runtime.catalogue.signingKey;
  const caller = async (c: Context): Promise<string | undefined> => (await principalOf(c))?.clientId;
  /** The caller (with governance: its tenant, which owns its jobs) or `undefined` when its key is refused. */
  const principalOf = async (c: Context): Promise<AuthenticatedClient | undefined> => {
    const authenticated = await authenticateStage({ request: c.req.raw, placement: 'bearer', clientKeys: runtime.catalogue.clientKeys, governance: runtime.governance });
    return authenticated.kind === 'continue' ? authenticated.value : undefined;
  };
  const log = (route: string, started: number, status: number, outcome: string, extra: Record<string, unknown> = {}): void => {
    logRequest(runtime.logger, { requestId: randomUUID(), route, attempts: [], status, outcome, totalMs: Math.round(performance.now() - started), ...extra });
    recordJobRequest(runtime, route, started, status, outcome, extra);
  };
  const handleFor = (target: RuntimeTarget, providerJobId: string, client: string): string =>
    signJobHandle({ kind: 'job', target: target.ref, providerJobId, client, expiresAt: Math.floor(runtime.now() / 1000) + runtime.jobHandleTtlSeconds }, signingKey as Uint8Array);

  /** Why a callback URL cannot be taken (no webhooks here, or the address policy), or `undefined`. */
  const callbackRefusal = (value: string): string | undefined => {
    const webhooks = runtime.jobWorkers?.webhooks;
    if (runtime.governance === undefined || webhooks === undefined) return 'This gateway sends no webhooks (it needs governance and a webhook master key).';
    const checked = checkCallbackUrl(value, webhooks.policy);
    return 'refusal' in checked ? `The callback URL is refused (${checked.refusal}): https only, no credentials, no private, link-local or metadata address.` : undefined;
  };
  const verified = (c: Context, client: string, id: string, kind: JobHandleClaims['kind']): { claims: JobHandleClaims; target: RuntimeTarget } | Response => {
    const claims = verifyJobHandle(id, signingKey as Uint8Array, client, runtime.now());
    if (claims === 'malformed' || claims === 'forged') return jobError(c, 400, 'invalid-job-id', 'The job id is not one this gateway issued.');
    if (claims === 'expired') return jobError(c, 410, 'job-id-expired', 'The job id has expired.');
    if (claims === 'foreign' || claims.kind !== kind) return jobError(c, 404, 'job-not-found', 'No such job for this client key.');
    const target = runtime.catalogue.targets.get(claims.target);
    if (target === undefined) return jobError(c, 404, 'job-not-found', 'The job belongs to a target this gateway no longer serves.');
    return { claims, target };
  };

  app.post(base, async (c) => {
    const started = performance.now();
    const authenticated = await principalOf(c);
    if (authenticated === undefined) return jobError(c, 401, 'invalid-client-key', 'The API key is missing or invalid.');
    const client = authenticated.clientId;
    const principal = authenticated.principal;
    if (signingKey === undefined) return jobError(c, 404, 'jobs-disabled', 'This gateway serves no async models.');
    const bytes = await readLimitedBody(c.req.raw, runtime.limits.maxBodyBytes);
    if (bytes === undefined) return jobError(c, 413, 'body-too-large', 'The request body is too large.');
    let parsed: unknown;
    try {
      parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    } catch {
      return jobError(c, 400, 'malformed-json', 'The body is not a JSON object.');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return jobError(c, 400, 'malformed-json', 'The body is not a JSON object.');
    const request = (version === 1 ? gatewayJobCreateRequestV1Schema : gatewayJobCreateRequestV2Schema).safeParse(parsed);
    if (!request.success) return invalidRequest(c, 'The body is not a valid job create request.', gatewayJobIssuesOf(request.error, parsed));
    const { model: modelName, idempotencyKey: clientIdempotencyKey, callbackUrl, ...fields } = request.data as typeof request.data & { callbackUrl?: string };
    if (callbackUrl !== undefined) {
      const refusal = callbackRefusal(callbackUrl);
      if (refusal !== undefined) return invalidRequest(c, 'The callback URL is refused.', [{ path: 'callbackUrl', reason: 'invalid-value', message: refusal }]);
    }
    const model = runtime.catalogue.models.get(modelName);
    const targets = model?.targets.filter((target) => target.execution === 'async') ?? [];
    if (model === undefined || targets.length === 0 || (principal !== undefined && runtime.governance?.mayUseModel(principal, modelName) === false)) {
      return jobError(c, 404, 'model-not-found', 'No async model of that name.');
    }
    const visibleKey = clientIdempotencyKey ?? randomBytes(12).toString('base64url');
    const idempotencyKey = `${ownerPrefix(client, signingKey)}${visibleKey}`;
    const taskInput = { ...fields, kind: model.taskKind, idempotencyKey };
    const checked = taskEnvelopeV2Schema.safeParse(taskInput);
    if (!checked.success) return invalidRequest(c, 'The body does not form a valid task.', gatewayJobIssuesOf(checked.error, taskInput));
    const task: TaskEnvelopeV2 = checked.data;
    // The same admission as a model request: draining, the process's slots, then per attempt the tenant's limits.
    const admitted = await admitStage({ draining: runtime.draining, limiter: runtime.limiter });
    if (admitted.kind === 'refuse') {
      const draining = admitted.refusal.outcome === 'refused:draining';
      log(`POST ${base}`, started, draining ? 503 : 429, admitted.refusal.outcome, { client, model: model.name });
      c.header('retry-after', '1');
      return jobError(c, draining ? 503 : 429, draining ? 'overloaded' : 'rate-limited', draining ? 'The gateway is shutting down.' : 'The gateway is at its concurrency limit.');
    }
    try {
      return await createJob(c, { started, client, principal, model, targets, task, visibleKey, submittedAt: runtime.now(), bytes: bytes.byteLength, callbackUrl });
    } finally {
      admitted.value.release();
    }
  });

  const createJob = async (
    c: Context,
    input: {
      started: number;
      client: string;
      principal: GovernancePrincipal | undefined;
      model: RuntimeModel;
      targets: readonly RuntimeTarget[];
      task: TaskEnvelopeV2;
      visibleKey: string;
      submittedAt: number;
      bytes: number;
      callbackUrl: string | undefined;
    },
  ): Promise<Response> => {
    const { started, client, principal, model, targets, task, visibleKey, submittedAt } = input;
    const requestId = randomUUID();
    const metering =
      runtime.governance === undefined || principal === undefined
        ? undefined
        : new RequestMetering(runtime.governance, principal, requestId, model.name, targets, reservationFactsOf(task, input.bytes), runtime.now() + runtime.jobHandleTtlSeconds * 1000, runtime.now);
    // A failed attempt's settlement waits for what follows (the last one releases the tenant's slot).
    let unsettled: { meter: AttemptMeter; ending: AttemptEnding } | undefined;
    const settleUnsettled = (releaseSlot: boolean): void => {
      unsettled?.meter.settle(unsettled.ending, releaseSlot);
      unsettled = undefined;
    };
    try {
      return await attemptTargets();
    } finally {
      settleUnsettled(true);
    }

    async function attemptTargets(): Promise<Response> {
      const attempts: OperatorLogAttempt[] = [];
      const signal = AbortSignal.any([c.req.raw.signal, AbortSignal.timeout(runtime.limits.requestTimeoutMs)]);
      for (const target of targets.slice(0, runtime.limits.maxAttempts)) {
        const note = (outcome: string): void => {
          attempts.push({ target: target.ref, provider: target.provider, family: target.family, outcome });
        };
        let meter: AttemptMeter | undefined;
        if (metering !== undefined) {
          const admission = await metering.admit(target);
          if (admission.kind === 'refused') {
            const status = admission.code === 'tenant-budget-exhausted' ? 402 : admission.code === 'governance-unavailable' ? 503 : 429;
            log(`POST ${base}`, started, status, `refused:${admission.code}`, { client, model: model.name, attempts });
            if (admission.retryAfterMs !== undefined) c.header('retry-after', String(Math.max(1, Math.ceil(admission.retryAfterMs / 1000))));
            return jobError(c, status, admission.code, 'The tenant’s limits refused the job; nothing was sent.');
          }
          settleUnsettled(false);
          meter = admission.meter;
        }
        let execution;
        try {
          execution = await withAttemptId(meter?.attemptId, signal, () => runtime.engine.execute({ binding: target.binding, task, signal }));
        } catch (error) {
          if (!isProtocolEngineErrorV1(error)) throw error;
          note(error.code);
          if (meter !== undefined) unsettled = { meter, ending: { reachedProvider: error.phase !== 'input' && error.phase !== 'transport', served: false, outcome: `failed:${error.code}` } };
          if (error.phase === 'input') continue;
          log(`POST ${base}`, started, 502, `engine:${error.code}`, { client, model: model.name, attempts });
          return jobError(c, 502, 'provider-error', 'The gateway could not submit the job.');
        }
        const target_ = { provider: target.provider, family: target.family, ref: target.ref };
        const providerRequestId = execution.responseMetadata.providerRequestId;
        const logged = { client, model: model.name, target: target_, attempts, ...(providerRequestId === undefined ? {} : { providerRequestId }) };
        if (execution.kind === 'accepted-job') {
          note('ok');
          if (principal !== undefined && metering !== undefined) {
            // Recorded before the client gets its handle, metered or not: an attempt admitted unmetered (the store
            // could not be asked and the tenant's limits fail open) is a paid provider job all the same, so it is
            // tracked, polled and settled like any other (nothing reserved: its reservation is 0). The reservation
            // of a metered one stays held until a terminal state is observed.
            await runtime.governance?.store.recordJob({
              tenantId: principal.tenant.id,
              keyId: principal.key.id,
              publicModel: model.name,
              targetRef: target.ref,
              providerJobId: execution.providerJobId,
              idempotencyKey: task.idempotencyKey ?? visibleKey,
              attemptId: meter?.attemptId ?? `${requestId}:${attempts.length}`,
              reservedMicros: meter === undefined ? 0 : metering.reservedMicros,
              currency: metering.currency,
              createdAtMs: runtime.now(),
              state: 'queued',
              // The poller's first poll of it follows the target's plan: the job settles even if nobody asks.
              nextPollAtMs: runtime.now() + (runtime.jobWorkers?.planOfTarget(target.ref).firstPollMs ?? 0),
              pollAttempts: 0,
              ...(input.callbackUrl === undefined ? {} : { callbackUrl: input.callbackUrl }),
            });
          }
          log(`POST ${base}`, started, 202, 'accepted', logged);
          const job: GatewayJobV2 = {
            id: handleFor(target, execution.providerJobId, client),
            object: 'job',
            model: model.name,
            status: 'queued',
            idempotencyKey: visibleKey,
            createdAt: iso(runtime.now()),
            ...(input.callbackUrl === undefined ? {} : { callbackUrl: input.callbackUrl }),
          };
          return c.json(job, 202);
        }
        if (execution.kind !== 'rejected') {
          note('unexpected-sync');
          if (meter !== undefined) unsettled = { meter, ending: { reachedProvider: true, served: false, outcome: 'failed:unexpected-sync' } };
          continue;
        }
        note(execution.failureCode);
        if (meter !== undefined && execution.acceptance.state !== 'unknown') unsettled = { meter, ending: { reachedProvider: true, served: false, outcome: `rejected:${execution.failureCode}` } };
        if (execution.acceptance.state === 'unknown') {
          // Never resent: the provider may have created a paid job. Say how to find it. Its reservation stays held
          // until recovery finds the job or the reservation's deadline passes (then it is settled as orphaned).
          const window = recoveryWindow(submittedAt, runtime.now());
          const recovery = signJobHandle({ kind: 'window', target: target.ref, providerJobId: '', client, expiresAt: Math.floor(runtime.now() / 1000) + runtime.jobHandleTtlSeconds, window }, signingKey as Uint8Array);
          log(`POST ${base}`, started, 502, `unknown:${execution.failureCode}`, logged);
          const how = target.echoesIdempotencyKey
            ? 'List the submission window with the recovery token (GET /v1/jobs?recover=...) before submitting again.'
            : 'This provider does not echo the idempotency key, so the gateway cannot find it for you (the recovery token answers recovery-unsupported); check with the operator before submitting again.';
          return jobError(c, 502, 'job-acceptance-unknown', `The provider may have created this job; it was not resent. ${how}`, {
            idempotencyKey: visibleKey,
            submittedWindow: window,
            recover: recovery,
          });
        }
        if (!execution.retryable) {
          log(`POST ${base}`, started, 422, `rejected:${execution.failureCode}`, logged);
          const code = (PROVIDER_FAILURE_CODES_V1 as readonly string[]).includes(execution.failureCode) ? (execution.failureCode as ProviderFailureCodeV1) : 'provider-error';
          return jobError(c, code === 'rate-limited' ? 429 : 422, code, 'The provider refused the job.');
        }
      }
      log(`POST ${base}`, started, 503, 'rejected:all-targets', { client, model: model.name, attempts });
      return jobError(c, 503, 'no-target-accepted', 'No target accepted the job; nothing was created.');
    }
  };

  /** The first observation of a tracked job's terminal state settles it (once: the store is idempotent on its attempt id). */
  const settleObservedJob = async (tenantId: string, target: RuntimeTarget, snapshot: ProviderAsyncJobSnapshotV2): Promise<void> => {
    const governance = runtime.governance;
    if (governance === undefined || !TERMINAL_JOB_STATES.has(snapshot.state)) return;
    const job = await governance.store.findJob(tenantId, target.ref, snapshot.providerJobId);
    if (job === undefined || job.settledAtMs !== undefined) return;
    const now = runtime.now();
    governance.settle(trackedJobSettlement(job, target, snapshot, now));
    await governance.store.recordJob({ ...job, state: snapshot.state, settledAtMs: now });
  };

  app.get(`${base}/:id`, async (c) => {
    const started = performance.now();
    const client = await caller(c);
    if (client === undefined) return jobError(c, 401, 'invalid-client-key', 'The API key is missing or invalid.');
    if (signingKey === undefined) return jobError(c, 404, 'jobs-disabled', 'This gateway serves no async models.');
    const found = verified(c, client, c.req.param('id'), 'job');
    if (found instanceof Response) {
      log(`GET ${base}/{id}`, started, found.status, 'refused:job-id', { client });
      return found;
    }
    const jobWorkers = runtime.jobWorkers;
    if (jobWorkers !== undefined) {
      // A tracked job answers from its row while the last observation is fresh; otherwise one poll, recorded and
      // settled like the poller's (so the poller and this read settle it once between them).
      const key = { tenantId: client, targetRef: found.target.ref, providerJobId: found.claims.providerJobId };
      const read = await readTrackedJob(jobWorkers.readDeps, key, c.req.raw.signal);
      if (read !== undefined && read.source !== 'stale') {
        log(`GET ${base}/{id}`, started, 200, read.job.state, { client, model: modelOfTarget(found.target.ref), source: read.source });
        const prefix = ownerPrefix(client, signingKey);
        return c.json(version === 1 ? trackedJobViewV1(read.job, c.req.param('id'), prefix) : trackedJobViewV2(read.job, c.req.param('id'), prefix));
      }
    }
    try {
      const observation = await runtime.engine.jobs.get({ binding: found.target.binding, providerJobId: found.claims.providerJobId, signal: c.req.raw.signal });
      await settleObservedJob(client, found.target, observation.snapshot);
      log(`GET ${base}/{id}`, started, 200, observation.snapshot.state, { client, model: modelOfTarget(found.target.ref) });
      return c.json(jobView(observation.snapshot, c.req.param('id'), modelOfTarget(found.target.ref), ownerPrefix(client, signingKey)));
    } catch (error) {
      if (!isProtocolEngineErrorV1(error)) throw error;
      log(`GET ${base}/{id}`, started, 502, `engine:${error.code}`, { client });
      return jobError(c, 502, 'provider-error', 'The provider could not be asked about this job.');
    }
  });

  if (version === 2) {
    // The gateway's copy of a result (jobs.media): served to the job's owner, after the provider's URL expired too.
    app.get(`${base}/:id/media/:index`, async (c) => {
      const client = await caller(c);
      if (client === undefined) return jobError(c, 401, 'invalid-client-key', 'The API key is missing or invalid.');
      if (signingKey === undefined) return jobError(c, 404, 'jobs-disabled', 'This gateway serves no async models.');
      const found = verified(c, client, c.req.param('id'), 'job');
      if (found instanceof Response) return found;
      const index = Number(c.req.param('index'));
      const job = await runtime.governance?.store.findJob(client, found.target.ref, found.claims.providerJobId);
      const key = Number.isInteger(index) ? job?.terminal?.media?.[index]?.storedKey : undefined;
      const stored = key === undefined ? undefined : await runtime.jobWorkers?.mediaStore?.get(key);
      if (stored === undefined) return jobError(c, 404, 'job-not-found', 'The gateway keeps no copy of that result.');
      return c.body(new Uint8Array(stored.bytes), 200, { 'content-type': stored.contentType, 'content-length': String(stored.bytes.byteLength) });
    });
  }

  app.post(`${base}/:id/cancel`, async (c) => {
    const started = performance.now();
    const client = await caller(c);
    if (client === undefined) return jobError(c, 401, 'invalid-client-key', 'The API key is missing or invalid.');
    if (signingKey === undefined) return jobError(c, 404, 'jobs-disabled', 'This gateway serves no async models.');
    const found = verified(c, client, c.req.param('id'), 'job');
    if (found instanceof Response) return found;
    try {
      await runtime.engine.jobs.cancel({ binding: found.target.binding, providerJobId: found.claims.providerJobId, signal: c.req.raw.signal });
      log(`POST ${base}/{id}/cancel`, started, 200, 'cancelled', { client });
      const answer: GatewayJobCancelV1 = { id: c.req.param('id'), object: 'job', model: modelOfTarget(found.target.ref), cancelRequested: true };
      return c.json(answer);
    } catch (error) {
      if (!isProtocolEngineErrorV1(error)) throw error;
      log(`POST ${base}/{id}/cancel`, started, error.code === 'PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED' ? 409 : 502, `engine:${error.code}`, { client });
      if (error.code === 'PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED') return jobError(c, 409, 'cancel-unsupported', 'This provider cannot cancel jobs.');
      return jobError(c, 502, 'provider-error', 'The provider could not cancel this job.');
    }
  });

  /** The caller's jobs from the store (with governance): filters by state, model and time, newest first, paged. */
  const listTrackedJobs = async (c: Context, started: number, client: string, prefix: string): Promise<Response> => {
    const raw = Object.fromEntries(Object.entries(c.req.query()).filter(([name]) => version === 2 || name === 'model' || name === 'limit'));
    const query = gatewayJobListQueryV2Schema.safeParse(raw);
    if (!query.success) return invalidRequest(c, 'The list query is not valid.', gatewayJobIssuesOf(query.error, raw));
    const { model, status, createdAfter, createdBefore, cursor } = query.data;
    const after = cursor === undefined ? undefined : decodeJobListCursor(cursor);
    if (cursor !== undefined && after === undefined) return invalidRequest(c, 'The cursor is not one this gateway wrote.', [{ path: 'cursor', reason: 'invalid-value', message: 'Pass the nextCursor of the previous page.' }]);
    if (model !== undefined && runtime.catalogue.models.get(model) === undefined && version === 1) {
      return invalidRequest(c, 'Name an async model: GET /v1/jobs?model=NAME.', [{ path: 'model', reason: 'invalid-value', message: 'Name a model of this gateway.' }]);
    }
    const limit = query.data.limit ?? (version === 1 ? 100 : 50);
    const filters: TrackedJobQueryV1 = {
      limit: limit + 1,
      ...(model === undefined ? {} : { publicModel: model }),
      ...(status === undefined ? {} : { state: status }),
      ...(createdAfter === undefined ? {} : { createdFromMs: Date.parse(createdAfter) }),
      ...(createdBefore === undefined ? {} : { createdBeforeMs: Date.parse(createdBefore) }),
      ...(after === undefined ? {} : { after }),
    };
    let rows: readonly TrackedJobV1[];
    try {
      rows = await (runtime.governance as NonNullable<typeof runtime.governance>).store.listJobs(client, filters);
    } catch {
      log(`GET ${base}`, started, 503, 'refused:governance-unavailable', { client });
      return jobError(c, 503, 'governance-unavailable', 'The job store cannot be read now.');
    }
    const page = rows.slice(0, limit);
    const handleOf = (job: TrackedJobV1): string =>
      signJobHandle({ kind: 'job', target: job.targetRef, providerJobId: job.providerJobId, client, expiresAt: Math.floor(runtime.now() / 1000) + runtime.jobHandleTtlSeconds }, signingKey as Uint8Array);
    log(`GET ${base}`, started, 200, 'listed', { client, source: 'store' });
    if (version === 1) {
      const list: GatewayJobListV1 = { object: 'list', data: page.map((job) => trackedJobViewV1(job, handleOf(job), prefix)) };
      return c.json(list);
    }
    const last = page.at(-1);
    const list: GatewayJobListV2 = {
      object: 'list',
      data: page.map((job) => trackedJobViewV2(job, handleOf(job), prefix)),
      ...(rows.length > limit && last !== undefined ? { nextCursor: encodeJobListCursor(last) } : {}),
    };
    return c.json(list);
  };

  app.get(base, async (c) => {
    const started = performance.now();
    const client = await caller(c);
    if (client === undefined) return jobError(c, 401, 'invalid-client-key', 'The API key is missing or invalid.');
    if (signingKey === undefined) return jobError(c, 404, 'jobs-disabled', 'This gateway serves no async models.');
    const recover = c.req.query('recover');
    const prefix = ownerPrefix(client, signingKey);
    let targets: readonly RuntimeTarget[];
    let window: { from: string; to: string } | undefined;
    if (recover !== undefined) {
      const found = verified(c, client, recover, 'window');
      if (found instanceof Response) return found;
      if (!found.target.echoesIdempotencyKey) {
        log(`GET ${base}`, started, 409, 'refused:recovery-unsupported', { client });
        return jobError(c, 409, 'recovery-unsupported', 'This provider does not echo the idempotency key, so the gateway cannot tell your job from another client’s in this window.');
      }
      targets = [found.target];
      window = found.claims.window;
    } else if (runtime.governance !== undefined) {
      return listTrackedJobs(c, started, client, prefix);
    } else {
      const model = runtime.catalogue.models.get(c.req.query('model') ?? '');
      if (model === undefined) return invalidRequest(c, 'Name an async model: GET /v1/jobs?model=NAME.', [{ path: 'model', reason: c.req.query('model') === undefined ? 'missing' : 'invalid-value', message: 'Name a model of this gateway.' }]);
      targets = model.targets.filter((target) => target.execution === 'async');
    }
    const items: GatewayJobV1[] = [];
    for (const target of targets) {
      try {
        const page = await runtime.engine.jobs.list({
          binding: target.binding,
          pageNum: 1,
          pageSize: 100,
          ...(window === undefined ? {} : { createdAfter: window.from, createdBefore: window.to }),
          signal: c.req.raw.signal,
        });
        for (const snapshot of page.items) {
          // Only the caller's jobs: the provider echoed our owner-tagged idempotency key. A recovery window is
          // never proof of ownership: another client may have created a job on the same target inside it.
          if (snapshot.idempotencyKey?.startsWith(prefix) !== true) continue;
          items.push(jobView(snapshot, handleFor(target, snapshot.providerJobId, client), modelOfTarget(target.ref), prefix));
        }
      } catch (error) {
        if (!isProtocolEngineErrorV1(error)) throw error;
        if (error.code === 'PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED') continue;
        log(`GET ${base}`, started, 502, `engine:${error.code}`, { client });
        return jobError(c, 502, 'provider-error', 'The provider could not list jobs.');
      }
    }
    log(`GET ${base}`, started, 200, 'listed', { client });
    const list: GatewayJobListV1 = { object: 'list', data: items };
    return c.json(list);
  });
}
