import { DEFAULT_ALLOWED_ENVIRONMENT, type ProcessTransportOptions } from './process-transport-options.js';

/**
 * The child's whole environment: the allowed gateway variables that are set, the target's own variables, and the
 * configuration folder as `HOME`, the XDG folders beneath it and every variable the family names. Nothing else:
 * no gateway secret or client key can reach the child unless the target names it.
 */
export function buildChildEnvironment(
  options: Pick<ProcessTransportOptions, 'allowEnvironment' | 'environment' | 'configFolder'>,
  configFolderVariables: readonly string[],
  parent: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const name of options.allowEnvironment ?? DEFAULT_ALLOWED_ENVIRONMENT) {
    const value = parent[name];
    if (value !== undefined) environment[name] = value;
  }
  const folder = options.configFolder;
  Object.assign(environment, {
    HOME: folder,
    XDG_CONFIG_HOME: `${folder}/.config`,
    XDG_CACHE_HOME: `${folder}/.cache`,
    XDG_DATA_HOME: `${folder}/.local/share`,
    XDG_STATE_HOME: `${folder}/.local/state`,
  });
  for (const name of configFolderVariables) environment[name] = folder;
  Object.assign(environment, options.environment ?? {});
  return environment;
}
