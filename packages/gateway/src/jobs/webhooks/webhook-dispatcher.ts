import { createHash } from 'node:crypto';
import type { HttpTransportHostnameResolver } from '@tokenforge/http-transport';
import type { GovernanceStoreV1, TrackedJobDeliveryV1, TrackedJobV1 } from '../../governance/v1/governance-store-v1.js';
import { checkCallbackUrl, type CallbackUrlPolicy } from './callback-url-policy.js';
import { deliverWebhook, type WebhookAttemptResult } from './deliver-webhook.js';
import { signStandardWebhook } from './standard-webhook-signature.js';

/** Options of {@link createWebhookDispatcher}. */
export interface WebhookDispatcherOptions {
  readonly store: Pick<GovernanceStoreV1, 'appendJobDelivery'>;
  /** The tenant's signing secret (`whsec_...`); `undefined` sends nothing for that tenant. */
  readonly secretFor: (tenantId: string) => string | undefined;
  /** The event's `data`: the job as the jobs API shows it to its owner. */
  readonly dataOf: (job: TrackedJobV1) => unknown;
  readonly policy: CallbackUrlPolicy;
  readonly now: () => number;
  /** Waits before the 2nd, 3rd... attempt; the event is abandoned after the last. Default 5 s, 30 s, 2 min, 10 min, 30 min, 2 h. */
  readonly retryDelaysMs?: readonly number[];
  /** One attempt's deadline. Default 10 s. */
  readonly timeoutMs?: number;
  /** Deliveries in flight at once. Default 8. */
  readonly maxConcurrent?: number;
  /** Events waiting or retrying at once; a new event beyond it is abandoned and logged. Default 10,000. */
  readonly maxPending?: number;
  readonly resolveHostname?: HttpTransportHostnameResolver;
  readonly trustedCertificates?: readonly string[];
  readonly onError?: (error: unknown) => void;
}

/** Delivers state changes of tracked jobs to their callback URLs. */
export interface WebhookDispatcher {
  /** What callback URLs may reach (checked at create and again at each delivery). */
  readonly policy: CallbackUrlPolicy;
  /** Queues the job's current state for delivery; returns at once (a receiver that is down never blocks the caller). */
  announce(job: TrackedJobV1): void;
  /**
   * Sends an event of `job` again, at once and with the usual retries (an operator's replay): the event `eventId`
   * names (its state, found in the job's delivery log), else the job's current state. Keeps the event's id.
   */
  replay(job: TrackedJobV1, eventId?: string): { readonly eventId: string; readonly state: string } | 'no-callback' | 'unknown-event';
  /**
   * The terminal event of a settled job is delivered at least once even when the instance that announced it dies:
   * the job stays due (its row's next poll) until its delivery log shows the event delivered or given up. Looked at
   * again, this answers when to look next, or `undefined` when the event is done; when the log has been silent past
   * the announcing instance's next retry, it announces the event again here (the same event id: receivers drop the
   * duplicate, if any).
   */
  followUp(job: TrackedJobV1): number | undefined;
  /** When a settled job with a callback is first looked at again (absent: the job has no callback URL). */
  firstFollowUpAtMs(job: TrackedJobV1): number | undefined;
  /** Events not yet delivered or abandoned. */
  readonly pending: number;
  /** Resolves when nothing is pending (tests, shutdown). */
  idle(): Promise<void>;
  /** Stops retrying: pending events are abandoned after their attempt in flight. */
  close(): Promise<void>;
}

const DEFAULT_RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 600_000, 1_800_000, 7_200_000];

/** The event id of a job reaching a state: the same for every retry and every instance that announces it. */
export function webhookEventId(job: TrackedJobV1): string {
  const digest = createHash('sha256').update(`${job.tenantId}\u0000${job.targetRef}\u0000${job.providerJobId}\u0000${job.state}`).digest('base64url');
  return `msg_${digest.slice(0, 27)}`;
}

/**
 * Signed webhook events (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`) for job state
 * changes, at least once: each attempt is signed afresh, a non-2xx answer, a redirect, a timeout or a refused
 * connection is retried after the next delay, every attempt is appended to the job's delivery log, and the same
 * event keeps its id so a receiver drops duplicates. Deliveries run beside polling, bounded, never awaited by it.
 */
export function createWebhookDispatcher(options: WebhookDispatcherOptions): WebhookDispatcher {
  const delays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const maxConcurrent = options.maxConcurrent ?? 8;
  const maxPending = options.maxPending ?? 10_000;
  const running = new Set<Promise<void>>();
  /** Event ids with a delivery under way in this process. */
  const pendingEvents = new Set<string>();
  const timeoutMs = options.timeoutMs ?? 10_000;
  /** Slack for a delivery that waits for a slot or a clock that drifts, before an event counts as forgotten. */
  const followUpSlackMs = timeoutMs + 5_000;
  const waiting: (() => void)[] = [];
  const sleeping = new Set<{ timer: ReturnType<typeof setTimeout>; wake: () => void }>();
  let active = 0;
  let closed = false;

  const slot = async (): Promise<void> => {
    if (active < maxConcurrent) {
      active += 1;
      return;
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  };
  const freeSlot = (): void => {
    const next = waiting.shift();
    if (next !== undefined) next();
    else active -= 1;
  };
  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const entry = { timer: setTimeout(() => (sleeping.delete(entry), resolve()), ms), wake: resolve };
      entry.timer.unref?.();
      sleeping.add(entry);
    });
  const log = async (job: TrackedJobV1, delivery: TrackedJobDeliveryV1): Promise<void> => {
    await options.store.appendJobDelivery(job, delivery).catch((error: unknown) => options.onError?.(error));
  };

  async function deliver(job: TrackedJobV1, url: URL, secret: string): Promise<void> {
    const eventId = webhookEventId(job);
    const body = JSON.stringify({ type: `job.${job.state}`, timestamp: new Date(options.now()).toISOString(), data: options.dataOf(job) });
    for (let attempt = 1; ; attempt += 1) {
      if (closed && attempt > 1) return log(job, { eventId, state: job.state, attempt, atMs: options.now(), outcome: 'abandoned', reason: 'shutdown' });
      await slot();
      let result: WebhookAttemptResult;
      try {
        const headers = signStandardWebhook(secret, eventId, options.now() / 1000, body);
        result = await deliverWebhook({
          url,
          policy: options.policy,
          headers: { ...headers },
          body,
          timeoutMs,
          ...(options.resolveHostname === undefined ? {} : { resolveHostname: options.resolveHostname }),
          ...(options.trustedCertificates === undefined ? {} : { trustedCertificates: options.trustedCertificates }),
        });
      } finally {
        freeSlot();
      }
      const base = { eventId, state: job.state, attempt, atMs: options.now(), ...('status' in result && result.status !== undefined ? { status: result.status } : {}) };
      const reason = result.outcome === 'failed' && result.reason !== undefined ? { reason: result.reason } : {};
      if (result.outcome === 'delivered') return log(job, { ...base, outcome: 'delivered' });
      const last = result.permanent === true || attempt > delays.length || closed;
      await log(job, { ...base, ...reason, outcome: last ? 'abandoned' : 'failed' });
      if (last) return;
      await sleep(delays[attempt - 1] ?? 0);
    }
  }

  const start = (job: TrackedJobV1, url: URL, secret: string): void => {
    const eventId = webhookEventId(job);
    pendingEvents.add(eventId);
    const delivery = deliver(job, url, secret)
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => pendingEvents.delete(eventId));
    running.add(delivery);
    void delivery.finally(() => running.delete(delivery));
  };
  const isFinal = (delivery: TrackedJobDeliveryV1): boolean =>
    delivery.outcome === 'delivered' || (delivery.outcome === 'abandoned' && delivery.reason !== 'shutdown' && delivery.reason !== 'queue-full');

  return {
    policy: options.policy,
    firstFollowUpAtMs(job) {
      return job.callbackUrl === undefined ? undefined : options.now() + followUpSlackMs;
    },
    followUp(job) {
      if (job.callbackUrl === undefined) return undefined;
      const eventId = webhookEventId(job);
      const log = (job.deliveries ?? []).filter((delivery) => delivery.eventId === eventId);
      if (log.some(isFinal)) return undefined;
      const now = options.now();
      if (pendingEvents.has(eventId)) return now + followUpSlackMs;
      const last = log.at(-1);
      const quietUntil = last === undefined ? (job.settledAtMs ?? now) + followUpSlackMs : last.atMs + (delays[last.attempt - 1] ?? 0) + followUpSlackMs;
      if (now < quietUntil) return quietUntil;
      this.announce(job);
      return now + followUpSlackMs;
    },
    announce(job) {
      if (job.callbackUrl === undefined || closed) return;
      if (pendingEvents.has(webhookEventId(job))) return;
      const secret = options.secretFor(job.tenantId);
      const checked = checkCallbackUrl(job.callbackUrl, options.policy);
      if (secret === undefined || !('url' in checked)) return;
      if (running.size >= maxPending) {
        void log(job, { eventId: webhookEventId(job), state: job.state, attempt: 0, atMs: options.now(), outcome: 'abandoned', reason: 'queue-full' });
        return;
      }
      start(job, checked.url, secret);
    },
    replay(job, eventId) {
      if (job.callbackUrl === undefined) return 'no-callback';
      const state = eventId === undefined ? job.state : job.deliveries?.find((delivery) => delivery.eventId === eventId)?.state;
      if (state === undefined) return 'unknown-event';
      const event = { ...job, state };
      const secret = options.secretFor(job.tenantId);
      const checked = checkCallbackUrl(job.callbackUrl, options.policy);
      if (secret !== undefined && 'url' in checked && !closed) start(event, checked.url, secret);
      return { eventId: webhookEventId(event), state };
    },
    get pending() {
      return running.size;
    },
    async idle() {
      while (running.size > 0) await Promise.all([...running]);
    },
    async close() {
      closed = true;
      for (const entry of sleeping) {
        clearTimeout(entry.timer);
        entry.wake();
      }
      sleeping.clear();
      await this.idle();
    },
  };
}
