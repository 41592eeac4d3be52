import type { Redis } from 'ioredis';
import type { Pool } from 'pg';
import type { LedgerRowV1 } from '../v1/governance-store-v1.js';
import { decodeOutboxRow } from './ledger-outbox-row.js';
import { insertLedgerRows } from './postgres-governance-records.js';

/** How a flusher reads the outbox and writes the ledger. */
export interface LedgerOutboxFlusherOptions {
  /** A connection of its own: the blocking read holds it. */
  readonly redis: Redis;
  readonly pool: Pool;
  /** The outbox stream the settlement and sweep scripts append to. */
  readonly stream: string;
  /** Where an entry that is not a ledger row goes (kept for people to look at, never dropped). */
  readonly deadLetterStream: string;
  /** The consumer group every instance's flusher reads in. */
  readonly group: string;
  /** This flusher's consumer name, unique per instance. */
  readonly consumer: string;
  /** Entries per PostgreSQL transaction. */
  readonly batchSize: number;
  /** How long one blocking read waits for new entries. */
  readonly blockMs: number;
  /** Entries pending this long at another consumer are taken over (its instance is presumed dead). */
  readonly claimIdleMs: number;
  /** Wait after a failed cycle (PostgreSQL or Redis down) before the next. */
  readonly retryMs: number;
  /**
   * Wait after a cycle that wrote fewer than `batchSize` rows, so that rows arriving one by one are written many to a
   * transaction instead of one each (default 0). The rows wait in the outbox, which is as durable as the ledger.
   */
  readonly lingerMs?: number;
  /** Told the outbox length after each cycle (the store refuses admissions above its bound). */
  readonly onOutboxLength?: (length: number) => void;
}

type StreamEntry = readonly [id: string, fields: readonly string[] | null];

/**
 * Moves ledger rows from the Redis outbox stream to PostgreSQL; one runs in every instance.
 *
 * Why a Redis stream and not the "local journal file": the settlement script appends the row in the same
 * atomic step that moves the money, so the budget counters and the ledger can never disagree, whichever instance
 * dies when. A journal file would be a second write after the Redis step, and would be lost with a dead instance's
 * disk. When PostgreSQL is down the rows wait in the stream (Redis with its append-only file on keeps them over a
 * restart); the store bounds the stream's length by answering `unavailable` to admissions above it.
 *
 * A cycle: this consumer's own pending entries first (delivered but not acknowledged: a failed write), then entries
 * another consumer has held longer than `claimIdleMs` (`XAUTOCLAIM`: its instance died), then new entries
 * (`XREADGROUP ... >`, blocking). A batch is written in one transaction with `ON CONFLICT (attempt_id) DO NOTHING`, and
 * only after the commit acknowledged and deleted (`XACK`, `XDEL`): a crash between the two writes the batch again,
 * which the unique attempt id turns into nothing. So every row is written exactly once.
 */
export class LedgerOutboxFlusher {
  readonly #options: LedgerOutboxFlusherOptions;
  #running: Promise<void> | undefined;
  #stopping = false;
  #lastClaimMs = 0;
  #wake: (() => void) | undefined;
  #readNew = false;
  /** Rows this flusher committed (for tests and metrics). */
  written = 0;
  /** Failed cycles (for tests and metrics). */
  failures = 0;

  constructor(options: LedgerOutboxFlusherOptions) {
    this.#options = options;
  }

  start(): void {
    if (this.#running !== undefined) return;
    this.#stopping = false;
    this.#running = this.#loop();
  }

  /** Ends a linger now (a drain wants the rows written). */
  hurry(): void {
    this.#wake?.();
  }

  /** Stops after the current cycle (a blocking read is cut by closing the connection). */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.#wake?.();
    this.#options.redis.disconnect();
    await this.#running;
    this.#running = undefined;
  }

  async #loop(): Promise<void> {
    while (!this.#stopping) {
      try {
        const handled = await this.cycle(this.#options.blockMs);
        const linger = this.#options.lingerMs ?? 0;
        // Only after new rows: pending and claimed rows (an outage or a dead instance behind them) are written at once.
        if (this.#readNew && handled > 0 && handled < this.#options.batchSize && linger > 0 && !this.#stopping) await this.#sleep(linger);
      } catch {
        if (this.#stopping) return;
        this.failures += 1;
        await this.#sleep(this.#options.retryMs);
      }
    }
  }

  /** A wait that `stop` cuts short. */
  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#wake = undefined;
        resolve();
      }, ms);
      this.#wake = () => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve();
      };
    });
  }

  /** One cycle; answers how many entries it handled. Exposed for tests. */
  async cycle(blockMs: number): Promise<number> {
    const { redis, stream, group, consumer, batchSize, claimIdleMs } = this.#options;
    let entries = await this.#read(['COUNT', batchSize, 'STREAMS', stream, '0']);
    if (entries.length === 0 && Date.now() - this.#lastClaimMs >= claimIdleMs / 2) {
      this.#lastClaimMs = Date.now();
      const claimed = (await redis.call('XAUTOCLAIM', stream, group, consumer, claimIdleMs, '0-0', 'COUNT', batchSize)) as [string, StreamEntry[], string[]?];
      entries = claimed[1] ?? [];
    }
    this.#readNew = entries.length === 0;
    if (entries.length === 0) entries = await this.#read(['COUNT', batchSize, ...(blockMs > 0 ? ['BLOCK', blockMs] : []), 'STREAMS', stream, '>']);
    if (entries.length > 0) await this.#write(entries);
    this.#options.onOutboxLength?.(Number(await redis.xlen(stream)));
    return entries.length;
  }

  async #read(tail: readonly (string | number)[]): Promise<StreamEntry[]> {
    const { redis, stream, group, consumer } = this.#options;
    try {
      const answer = (await redis.call('XREADGROUP', 'GROUP', group, consumer, ...tail)) as [string, StreamEntry[]][] | null;
      return answer?.[0]?.[1] ?? [];
    } catch (error) {
      if (!(error instanceof Error && error.message.startsWith('NOGROUP'))) throw error;
      await redis.call('XGROUP', 'CREATE', stream, group, '0', 'MKSTREAM').catch((created: unknown) => {
        if (!(created instanceof Error && created.message.startsWith('BUSYGROUP'))) throw created;
      });
      return [];
    }
  }

  async #write(entries: readonly StreamEntry[]): Promise<void> {
    const { redis, pool, stream, group, deadLetterStream } = this.#options;
    const rows: LedgerRowV1[] = [];
    const dead: StreamEntry[] = [];
    for (const entry of entries) {
      const fields = entry[1];
      if (fields === null) continue;
      const text = fields[fields.indexOf('row') + 1];
      const row = text === undefined ? undefined : decodeOutboxRow(text);
      if (row === undefined) dead.push(entry);
      else rows.push(row);
    }
    if (rows.length > 0) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await insertLedgerRows(client, rows);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    }
    const ids = entries.map((entry) => entry[0]);
    const done = redis.multi();
    for (const entry of dead) done.xadd(deadLetterStream, '*', ...(entry[1] ?? []));
    done.xack(stream, group, ...ids);
    done.xdel(stream, ...ids);
    await done.exec();
    this.written += rows.length;
  }
}
