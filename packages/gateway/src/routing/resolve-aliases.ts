/** Each alias with the model it ends at, or the problem that keeps it from one. */
export type ResolvedAlias = { readonly alias: string; readonly model: string } | { readonly alias: string; readonly problem: string };

/**
 * Follows each alias to a model: through other aliases, refusing a cycle, a name that is also a model, and a
 * name that leads nowhere. Pure; the catalogue schema reports the problems, the runtime maps the names.
 */
export function resolveAliases(aliases: Readonly<Record<string, string>>, models: ReadonlySet<string>): readonly ResolvedAlias[] {
  return Object.keys(aliases).map((alias): ResolvedAlias => {
    if (models.has(alias)) return { alias, problem: 'is already the name of a model' };
    const seen = [alias];
    let name = aliases[alias] as string;
    while (!models.has(name)) {
      if (seen.includes(name)) return { alias, problem: `is part of a cycle (${[...seen, name].join(' -> ')})` };
      const next = aliases[name];
      if (next === undefined) return { alias, problem: `points at ${name}, which is neither a model nor an alias` };
      seen.push(name);
      name = next;
    }
    return { alias, model: name };
  });
}

/** Reports every alias problem through `report` (the catalogue schema's check). */
export function checkAliases(aliases: Readonly<Record<string, string>>, models: ReadonlySet<string>, report: (alias: string, message: string) => void): void {
  for (const resolved of resolveAliases(aliases, models)) if ('problem' in resolved) report(resolved.alias, resolved.problem);
}
