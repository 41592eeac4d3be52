/**
 * The admin API's shapes the console reads: the gateway's own types (inferred from its admin API schemas), imported
 * as types only, so nothing of the gateway's runtime enters the console bundle.
 */
export type {
  AdminBudgetV1 as Budget,
  AdminKeyV1 as Key,
  AdminKeyCreatedV1 as KeyCreated,
  AdminLimitsV1 as Limits,
  AdminLimitUseV1 as LimitUse,
  AdminRequestAttemptV1 as RequestAttempt,
  AdminRequestRecordV1 as RequestRecord,
  AdminSpendGroupV1 as SpendGroup,
  AdminTargetsV1 as Targets,
  AdminTargetV1 as Target,
  AdminTenantV1 as Tenant,
  AdminTrackedJobV1 as TrackedJob,
} from '@tokenforge/gateway';
