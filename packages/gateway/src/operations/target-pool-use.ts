import type { HttpProviderPoolUse } from '@tokenforge/http-transport';
import type { ResolvedCatalogue } from '../runtime/resolve-catalogue.js';

/** One HTTP target's upstream connection pool in this process (catalogue names only). */
export interface TargetPoolUse extends HttpProviderPoolUse {
  /** `<model>#<index>`, as the catalogue defines it. */
  readonly ref: string;
  /** The catalogue's provider of the target. */
  readonly provider: string;
  /** The public model the target serves. */
  readonly model: string;
}

/**
 * The connection pool use of every HTTP target of the catalogue in force (an agent CLI target has no pool and is
 * left out). Unchanged targets keep their pool across a reload, so their figures go on.
 */
export function targetPoolUse(catalogue: Pick<ResolvedCatalogue, 'targets' | 'transportOf'>): TargetPoolUse[] {
  const use: TargetPoolUse[] = [];
  for (const target of catalogue.targets.values()) {
    const transport = catalogue.transportOf?.(target);
    if (transport === undefined) continue;
    use.push({ ref: target.ref, provider: target.provider, model: target.routing?.model ?? target.ref.slice(0, target.ref.lastIndexOf('#')), ...transport.poolUse() });
  }
  return use;
}
