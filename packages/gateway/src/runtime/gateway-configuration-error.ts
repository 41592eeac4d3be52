/** A gateway that cannot start: a missing environment variable, a family no adapter serves, ... */
export class GatewayConfigurationError extends Error {
  readonly code = 'GATEWAY_CONFIGURATION_INVALID';
  /** Every problem found, each naming its catalogue path (never a secret value). */
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(`the gateway cannot start:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'GatewayConfigurationError';
    this.problems = problems;
  }
}
