/** The signing key of every cross-dialect gateway (`jobs.signingKeyEnv`): the gateway derives its opaque-state seal from it. */
export const CROSS_DIALECT_SIGNING_KEY = 'cross-dialect-signing-key-0123456789abcdef';
