export { createProcessProviderTransport } from './create-process-provider-transport.js';
export { buildChildEnvironment } from './build-child-environment.js';
export { DEFAULT_ALLOWED_ENVIRONMENT } from './process-transport-options.js';
export type { ProcessRunReport, ProcessTransportOptions } from './process-transport-options.js';
