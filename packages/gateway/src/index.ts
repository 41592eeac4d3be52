export { startGateway } from './start-gateway.js';
export type { GatewayModelSummary, RunningGateway, RunningGovernance, StartGatewayOptions } from './start-gateway.js';
export type { GovernanceStoreV1 } from './governance/v1/governance-store-v1.js';
export { gatewayAdminApiV1JsonSchema } from './admin/gateway-admin-api-v1-json-schema.js';
export type {
  AdminBudgetV1,
  AdminErrorV1,
  AdminKeyCreatedV1,
  AdminKeyV1,
  AdminLimitsV1,
  AdminLimitUseV1,
  AdminRequestAttemptV1,
  AdminRequestRecordV1,
  AdminSpendGroupV1,
  AdminTargetsV1,
  AdminTargetV1,
  AdminTenantCreateV1,
  AdminTenantV1,
  AdminTrackedJobV1,
} from './admin/gateway-admin-api-v1.js';
export { createGatewayApp } from './create-gateway-app.js';
export type { GatewayRuntime, GatewayLimits } from './runtime/gateway-runtime.js';
export { DEFAULT_GATEWAY_LIMITS } from './runtime/gateway-runtime.js';
export {
  gatewayCatalogueV1Schema,
  gatewayClientKeyV1Schema,
  gatewayGovernanceV1Schema,
  gatewayLimitsV1Schema,
  gatewayModelV1Schema,
  gatewayTargetV1Schema,
} from './catalogue/gateway-catalogue-v1.js';
export type { GatewayCatalogueV1, GatewayClientKeyV1, GatewayGovernanceV1, GatewayLimitsV1, GatewayModelV1, GatewayTargetV1 } from './catalogue/gateway-catalogue-v1.js';
export {
  gatewayAliasesV1Schema,
  gatewayBalanceV1Schema,
  gatewayCooldownV1Schema,
  gatewayMetricsV1Schema,
  gatewayModelRoutingV1Schema,
  gatewayRoutingV1Schema,
  gatewayTargetRoutingV1Schema,
} from './catalogue/gateway-catalogue-v1.js';
export type { GatewayBalanceV1, GatewayCooldownV1, GatewayMetricsV1, GatewayModelRoutingV1, GatewayRoutingV1 } from './catalogue/gateway-catalogue-v1.js';
export { GatewayMetrics } from './operations/gateway-metrics.js';
export type { GatewayMetricsSources } from './operations/gateway-metrics.js';
export { describeTargets } from './operations/describe-targets.js';
export type { GatewayTargetsReport } from './operations/describe-targets.js';
export type { TargetHealthSnapshot, TargetHealthState } from './routing/target-health-snapshot.js';
export type { TargetWindowSummary } from './routing/target-latency-window.js';
export type { CatalogueReloadResult } from './runtime/reload-catalogue.js';
export { gatewayCatalogueV1JsonSchema } from './catalogue/catalogue-json-schema.js';
export { GatewayCatalogueError, parseGatewayCatalogue, parseGatewayCatalogueText, readGatewayCatalogueFile } from './catalogue/load-catalogue.js';
export type { GatewayCatalogueIssue } from './catalogue/load-catalogue.js';
export {
  GATEWAY_JOB_ERROR_CODES_V1,
  GATEWAY_JOB_ISSUE_REASONS_V1,
  gatewayJobCancelV1Schema,
  gatewayJobCreateRequestV1Schema,
  gatewayJobErrorCodeV1Schema,
  gatewayJobErrorV1Schema,
  gatewayJobIssueV1Schema,
  gatewayJobListV1Schema,
  gatewayJobMediaV1Schema,
  gatewayJobV1Schema,
} from './jobs/gateway-jobs-api-v1.js';
export type {
  GatewayJobCancelV1,
  GatewayJobCreateRequestV1,
  GatewayJobErrorCodeV1,
  GatewayJobErrorV1,
  GatewayJobIssueReasonV1,
  GatewayJobIssueV1,
  GatewayJobListV1,
  GatewayJobMediaV1,
  GatewayJobV1,
} from './jobs/gateway-jobs-api-v1.js';
export { gatewayJobsApiV1JsonSchema } from './jobs/gateway-jobs-api-v1-json-schema.js';
export {
  gatewayJobCreateRequestV2Schema,
  gatewayJobDeliveryV2Schema,
  gatewayJobListQueryV2Schema,
  gatewayJobListV2Schema,
  gatewayJobMediaV2Schema,
  gatewayJobV2Schema,
} from './jobs/gateway-jobs-api-v2.js';
export type {
  GatewayJobCreateRequestV2,
  GatewayJobDeliveryV2,
  GatewayJobListQueryV2,
  GatewayJobListV2,
  GatewayJobMediaV2,
  GatewayJobV2,
} from './jobs/gateway-jobs-api-v2.js';
export { gatewayJobsApiV2JsonSchema } from './jobs/gateway-jobs-api-v2-json-schema.js';
export { verifyStandardWebhook } from './jobs/webhooks/standard-webhook-signature.js';
export type { StandardWebhookRefusal } from './jobs/webhooks/standard-webhook-signature.js';
export { FAMILY_CAPABILITY_DEFAULTS } from './catalogue/family-capability-defaults.js';
export { GatewayConfigurationError } from './runtime/gateway-configuration-error.js';
export type { OperatorLogAttempt, OperatorLogLine, OperatorLogSink } from './operations/operator-log.js';
export { GATEWAY_INSTRUMENTATION_SCOPE } from './telemetry/gateway-telemetry.js';
export type { GatewayTelemetryOptions } from './telemetry/gateway-telemetry.js';
export { fitTaskToTarget } from './dialects/fit-task-to-target.js';
export type { FittedTask } from './dialects/fit-task-to-target.js';
