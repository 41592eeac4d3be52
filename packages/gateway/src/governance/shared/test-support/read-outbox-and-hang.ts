import { Redis } from 'ioredis';
import pg from 'pg';
import { LedgerOutboxFlusher } from '../ledger-outbox-flusher.js';
import { redisGovernanceKeys } from '../redis-governance-keys.js';

// An instance whose flusher reads the outbox but cannot reach PostgreSQL, then is killed:
// `tsx read-outbox-and-hang.ts <redis url>`. Its rows stay pending at its consumer, `doomed`.
const redis = new Redis(process.argv[2] ?? '');
const pool = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:1/postgres', connectionTimeoutMillis: 500 });
pool.on('error', () => undefined);
const flusher = new LedgerOutboxFlusher({
  redis,
  pool,
  stream: redisGovernanceKeys.outbox,
  deadLetterStream: redisGovernanceKeys.deadLetter,
  group: redisGovernanceKeys.outboxGroup,
  consumer: 'doomed',
  batchSize: 100,
  blockMs: 0,
  claimIdleMs: 60_000,
  retryMs: 100,
});
const read = await flusher.cycle(0).then(
  () => 'written',
  () => 'read',
);
process.stdout.write(`${read}\n`);
setInterval(() => undefined, 1000);
