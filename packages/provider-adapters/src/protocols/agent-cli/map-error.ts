import type { NormalizedProviderFailureV3, ProviderProcessExitV4 } from '@tokenforge/model-protocol';

/**
 * The failure a run that ended WITHOUT its terminal frame is, by how the process ended. Stable `providerCode`s:
 * `agent-cli.deadline` (over the target's deadline), `agent-cli.output-too-large` (stdout past its bounds),
 * `agent-cli.exit-nonzero` (the CLI exited with a failure code), `agent-cli.truncated` (exit 0 with no terminal
 * frame: never a success). A cancelled run is the stream's own `cancelled` and never reaches here.
 */
export function mapExit(exit: ProviderProcessExitV4): NormalizedProviderFailureV3 {
  switch (exit.reason) {
    case 'deadline':
      return { code: 'timeout', retryable: true, providerCode: 'agent-cli.deadline' };
    case 'output-too-large':
      return { code: 'protocol-violation', retryable: false, providerCode: 'agent-cli.output-too-large' };
    case 'aborted':
      return { code: 'truncated-stream', retryable: true, providerCode: 'agent-cli.aborted' };
    case 'exited':
      return exit.exitCode === 0
        ? { code: 'truncated-stream', retryable: true, providerCode: 'agent-cli.truncated' }
        : { code: 'provider-error', retryable: false, providerCode: 'agent-cli.exit-nonzero' };
    default: {
      const exhaustive: never = exit.reason;
      return exhaustive;
    }
  }
}
