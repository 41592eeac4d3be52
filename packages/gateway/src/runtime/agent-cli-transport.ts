import type { ProviderTransport } from '@tokenforge/model-protocol';
import { createProcessProviderTransport, type ProcessRunReport } from '@tokenforge/process-transport';
import { agentCliMapping } from '@tokenforge/provider-adapters';
import type { GatewayTargetV1 } from '../catalogue/gateway-catalogue-v1.js';

/** Default wall-clock bound of one CLI run. */
export const DEFAULT_AGENT_CLI_DEADLINE_MS = 300_000;

/** Receives each finished CLI run for the operator log (the CLI's stderr stays there, never with a client). */
export type AgentCliRunLog = (targetPath: string, report: ProcessRunReport) => void;

/**
 * The process transport of an `agent-cli/v1` target: its program, executable, configuration folder, built-in tools,
 * the variables it names read from the gateway's environment (each must be set), run slots and deadline. `undefined` after
 * recording a problem.
 */
export function agentCliTransportOf(
  target: GatewayTargetV1,
  env: Readonly<Record<string, string | undefined>>,
  path: string,
  problems: string[],
  runLog?: AgentCliRunLog,
): ProviderTransport | undefined {
  const cli = target.agentCli;
  if (cli === undefined) {
    problems.push(`${path}.agentCli: a target of family agent-cli/v1 needs agentCli (program, executable, configFolder)`);
    return undefined;
  }
  if (target.baseUrl !== undefined || target.credentials !== undefined) {
    problems.push(`${path}: an agentCli target has no baseUrl or credentials (the CLI signs in with its own configuration folder)`);
    return undefined;
  }
  if (cli.builtInTools === 'read-only' && agentCliMapping(cli.program)?.confinesReadOnlyTools !== true) {
    problems.push(`${path}.agentCli.builtInTools: ${cli.program} cannot confine read-only tools to its working folder`);
    return undefined;
  }
  const environment: Record<string, string> = {};
  let missing = false;
  for (const name of cli.environment ?? []) {
    const value = env[name];
    if (value === undefined) {
      problems.push(`${path}.agentCli.environment: the environment variable ${name} is not set`);
      missing = true;
    } else environment[name] = value;
  }
  if (missing) return undefined;
  return createProcessProviderTransport({
    program: cli.program,
    executable: cli.executable,
    configFolder: cli.configFolder,
    environment,
    builtInTools: cli.builtInTools ?? 'none',
    deadlineMs: cli.deadlineMs ?? DEFAULT_AGENT_CLI_DEADLINE_MS,
    ...(cli.maxConcurrentRuns === undefined ? {} : { maxConcurrentRuns: cli.maxConcurrentRuns }),
    ...(cli.maxQueuedRuns === undefined ? {} : { maxQueuedRuns: cli.maxQueuedRuns }),
    ...(runLog === undefined ? {} : { onRunEnd: (report: ProcessRunReport) => runLog(path, report) }),
  });
}
