import type { ProviderTransportMetadataV1 } from '@tokenforge/model-protocol';

/**
 * How a host transport talks to a `dashscope-tasks/v1` server: `Authorization: Bearer <key>` and no fixed headers
 * (`X-DashScope-WorkSpace` is a per-connection choice of the host; `X-DashScope-Async: enable` is sent by the
 * adapter on creates only).
 */
export const DASHSCOPE_TASKS_TRANSPORT_METADATA: ProviderTransportMetadataV1 = Object.freeze({
  auth: Object.freeze({ scheme: 'bearer' as const }),
  fixedHeaders: Object.freeze({}),
});
