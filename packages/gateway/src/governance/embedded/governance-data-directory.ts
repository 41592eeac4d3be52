import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateClientKeyV1 } from '../v1/client-key-v1.js';
import { GovernanceStoreErrorV1 } from '../v1/governance-store-error-v1.js';

/** The secrets the embedded store keeps in its data directory. */
export interface GovernanceDataDirectorySecrets {
  /** The key-hashing secret (HMAC-SHA256 of client keys), 64 hex digits. */
  readonly keyHashingSecret: string;
  /** The admin key of `/admin/v1` (`tf-admin-` and 43 base62 characters). */
  readonly adminKey: string;
  /**
   * The secret the opaque reasoning state seal is keyed from (64 hex digits), so a value sealed before a restart still
   * opens after it. Created on the first start that lacks it (a data directory from an older version gains it).
   */
  readonly opaqueStateSecret: string;
  /** The webhook master key (64 hex digits): each tenant's webhook signing secret is derived from it. */
  readonly webhookMasterKey: string;
  /** True when this call created the key-hashing secret or the admin key (the first start): the only time the admin key may be shown. */
  readonly created: boolean;
}

/** File names in the data directory. */
export const GOVERNANCE_DATA_FILES = {
  database: 'governance.sqlite',
  keyHashingSecret: 'key-hashing-secret',
  adminKey: 'admin-key',
  opaqueStateSecret: 'opaque-state-secret',
  webhookMasterKey: 'webhook-master-key',
  lock: 'governance.lock',
} as const;

function readSecret(path: string): string | undefined {
  try {
    const value = readFileSync(path, 'utf8').trim();
    return value === '' ? undefined : value;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function writeSecret(path: string, value: string): void {
  // `wx`: never overwrite a secret another process wrote first; 0600 at creation, then again in case of a umask.
  writeFileSync(path, `${value}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(path, 0o600);
}

/**
 * Creates the data directory (mode 0700) when missing, and its key-hashing secret, admin key, opaque state secret
 * and webhook master key on first start (files of mode 0600); afterwards reads them back. Losing the key-hashing
 * secret invalidates every client key.
 */
export function prepareGovernanceDataDirectory(directory: string): GovernanceDataDirectorySecrets {
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const secretPath = join(directory, GOVERNANCE_DATA_FILES.keyHashingSecret);
  const adminPath = join(directory, GOVERNANCE_DATA_FILES.adminKey);
  let created = false;
  let keyHashingSecret = readSecret(secretPath);
  if (keyHashingSecret === undefined) {
    writeSecret(secretPath, randomBytes(32).toString('hex'));
    keyHashingSecret = readSecret(secretPath) ?? '';
    created = true;
  }
  let adminKey = readSecret(adminPath);
  if (adminKey === undefined) {
    writeSecret(adminPath, generateClientKeyV1().replace(/^tf-/, 'tf-admin-'));
    adminKey = readSecret(adminPath) ?? '';
    created = true;
  }
  const opaquePath = join(directory, GOVERNANCE_DATA_FILES.opaqueStateSecret);
  let opaqueStateSecret = readSecret(opaquePath);
  if (opaqueStateSecret === undefined) {
    writeSecret(opaquePath, randomBytes(32).toString('hex'));
    opaqueStateSecret = readSecret(opaquePath) ?? '';
  }
  // Added after the first two: a data directory from before webhooks gets its key without counting as a first start.
  const webhookPath = join(directory, GOVERNANCE_DATA_FILES.webhookMasterKey);
  let webhookMasterKey = readSecret(webhookPath);
  if (webhookMasterKey === undefined) {
    writeSecret(webhookPath, randomBytes(32).toString('hex'));
    webhookMasterKey = readSecret(webhookPath) ?? '';
  }
  return { keyHashingSecret, adminKey, opaqueStateSecret, webhookMasterKey, created };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the data directory for this process: its counters are in memory, so two processes on one directory would
 * each admit up to every limit. The lock file holds the owner's pid; a lock left by a process that no longer runs
 * (killed) is taken over. Throws a `GovernanceStoreErrorV1` of code `data-directory-in-use` while another live
 * process (or another store of this one) holds it. Answers the release.
 */
export function lockGovernanceDataDirectory(directory: string): () => void {
  const path = join(directory, GOVERNANCE_DATA_FILES.lock);
  const mine = String(process.pid);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      writeFileSync(path, mine, { mode: 0o600, flag: 'wx' });
      return () => {
        if (readSecret(path) === mine) unlinkSync(path);
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readSecret(path));
      if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) break;
      unlinkSync(path);
    }
  }
  throw new GovernanceStoreErrorV1('data-directory-in-use', 'the governance data directory is in use by another process');
}
