import type { TokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';
import type { Logger } from 'pino';
import type { GatewayCatalogueV1 } from '../catalogue/gateway-catalogue-v1.js';
import { GatewayCatalogueError, readGatewayCatalogueFile } from '../catalogue/load-catalogue.js';
import type { ReloadedSettings } from './apply-reloaded-settings.js';
import type { TargetRouter } from '../routing/target-router.js';
import { GatewayConfigurationError } from './gateway-configuration-error.js';
import type { GatewayRuntime } from './gateway-runtime.js';
import { resolveCatalogue, type ResolvedCatalogue, type RuntimeTarget } from './resolve-catalogue.js';

/** What a reload did. */
export type CatalogueReloadResult =
  | {
      readonly kind: 'applied';
      readonly models: number;
      readonly targetsKept: number;
      readonly targetsAdded: number;
      readonly targetsRetired: number;
      /** Settings sections applied live (`limits`, `jobs`, `metrics`). */
      readonly settingsApplied: readonly string[];
      /** Changed settings kept at their old value, each with why (a restart applies them). */
      readonly settingsKept: readonly string[];
    }
  | { readonly kind: 'refused'; readonly problems: readonly string[] };

/** What {@link createCatalogueReloader} works on. */
export interface CatalogueReloaderOptions {
  readonly runtime: Pick<GatewayRuntime, 'catalogue' | 'limits'>;
  readonly router: Pick<TargetRouter, 'adopt'>;
  readonly suite: TokenForgeProtocolSuiteV1;
  /** The catalogue file. */
  readonly path: string;
  /** Read at each reload (a `_FILE` secret is read again too). */
  readonly env: () => Readonly<Record<string, string | undefined>>;
  readonly logger: Logger;
  /** Applies the new file's `limits`, `jobs` and `metrics` once its catalogue is in force (see `applyReloadedSettings`). */
  readonly applySettings?: (catalogue: GatewayCatalogueV1) => Promise<ReloadedSettings>;
  /** Told of each result (the metrics count them). */
  readonly onResult?: (result: CatalogueReloadResult) => void;
}

/** Reloads a catalogue file into a running gateway; `close` closes what earlier reloads retired. */
export interface CatalogueReloader {
  reload(): Promise<CatalogueReloadResult>;
  /** Closes the transports of retired targets now (the gateway is stopping). */
  close(): Promise<void>;
}

/**
 * Reloads validate the whole file and resolve every secret first; a bad file changes nothing and every problem is
 * logged (warn). A good one replaces the catalogue for new requests: unchanged targets are the same objects (their
 * pool and their cooldown state go on), requests in flight finish on the targets they hold, and the transports of
 * retired targets close once the longest request could have ended (`requestTimeoutMs`), or when the gateway stops.
 * Then `applySettings` applies limits, jobs and the metrics endpoint; a setting it cannot apply is kept and logged
 * (warn) with why. Reloads run one at a time.
 */
export function createCatalogueReloader(options: CatalogueReloaderOptions): CatalogueReloader {
  const retiring = new Set<{ catalogue: ResolvedCatalogue; targets: RuntimeTarget[]; timer: NodeJS.Timeout }>();
  let queue: Promise<unknown> = Promise.resolve();

  const reloadOnce = async (): Promise<CatalogueReloadResult> => {
    const { runtime, logger } = options;
    let next: ResolvedCatalogue;
    let parsed: GatewayCatalogueV1;
    try {
      parsed = await readGatewayCatalogueFile(options.path);
      next = resolveCatalogue(parsed, options.suite, options.env(), runtime.catalogue);
    } catch (error) {
      const problems =
        error instanceof GatewayCatalogueError
          ? error.issues.map((issue) => `${issue.path === '' ? '(root)' : issue.path}: ${issue.message}`)
          : error instanceof GatewayConfigurationError
            ? [...error.problems]
            : [`the catalogue file cannot be read (${error instanceof Error && 'code' in error ? String(error.code) : 'unreadable'})`];
      logger.warn({ event: 'catalogue-reload', result: 'refused', problems }, 'catalogue reload refused: the running catalogue stays');
      return { kind: 'refused', problems };
    }
    const previous = runtime.catalogue;
    const kept = new Set(next.targets.values());
    const retired = [...previous.targets.values()].filter((target) => !kept.has(target));
    const before = new Set(previous.targets.values());
    runtime.catalogue = next;
    options.router.adopt(next.targets.values());
    if (retired.length > 0) {
      const entry = { catalogue: previous, targets: retired, timer: setTimeout(() => void closeRetired(entry), runtime.limits.requestTimeoutMs) };
      entry.timer.unref();
      retiring.add(entry);
    }
    const settings = (await options.applySettings?.(parsed)) ?? { applied: [], kept: [] };
    for (const kept of settings.kept) logger.warn({ event: 'catalogue-reload-setting-kept', setting: kept.slice(0, kept.indexOf(':')) }, `catalogue reload: ${kept}`);
    const result: CatalogueReloadResult = {
      kind: 'applied',
      models: new Set(next.models.values()).size,
      targetsKept: [...kept].filter((target) => before.has(target)).length,
      targetsAdded: [...kept].filter((target) => !before.has(target)).length,
      targetsRetired: retired.length,
      settingsApplied: settings.applied,
      settingsKept: settings.kept,
    };
    const { kind, ...counts } = result;
    logger.info({ event: 'catalogue-reload', result: kind, ...counts }, 'catalogue reloaded');
    return result;
  };

  const closeRetired = async (entry: { catalogue: ResolvedCatalogue; targets: RuntimeTarget[]; timer: NodeJS.Timeout }): Promise<void> => {
    if (!retiring.delete(entry)) return;
    clearTimeout(entry.timer);
    await entry.catalogue.closeTargets?.(entry.targets);
  };

  return {
    reload: () => {
      const run = queue.then(reloadOnce);
      queue = run.catch(() => undefined);
      return run.then((result) => {
        options.onResult?.(result);
        return result;
      });
    },
    close: async () => {
      await Promise.all([...retiring].map(closeRetired));
    },
  };
}
