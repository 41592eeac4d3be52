import { z } from 'zod';
import {
  adminErrorV1Schema,
  adminJobDeliveriesV1Schema,
  adminJobListV1Schema,
  adminJobReplayV1Schema,
  adminJobReplayedV1Schema,
  adminKeyListV1Schema,
  adminLimitUseV1Schema,
  adminRequestListV1Schema,
  adminRequestV1Schema,
  adminSpendV1Schema,
  adminTargetsV1Schema,
  adminTenantListV1Schema,
  adminKeyChangeV1Schema,
  adminKeyCreatedV1Schema,
  adminKeyCreateV1Schema,
  adminKeyUpdateV1Schema,
  adminKeyV1Schema,
  adminTenantChangeV1Schema,
  adminTenantCreateV1Schema,
  adminTenantUpdateV1Schema,
  adminTenantV1Schema,
  adminWebhookSecretV1Schema,
} from './gateway-admin-api-v1.js';

function part(schema: z.ZodType, io: 'input' | 'output', description: string): Record<string, unknown> {
  const { $schema: _schema, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  return { description, ...rest };
}

/**
 * The JSON Schema of the admin API, version 1 (draft 2020-12), generated from the zod schemas: one `$defs` entry
 * per body. The committed copy `gateway-admin-api-v1.schema.json` is what client tools read; a test keeps it current.
 */
export function gatewayAdminApiV1JsonSchema(): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://tokenforge.dev/schemas/gateway-admin-api-v1.schema.json',
    title: 'TokenForge gateway admin API, version 1',
    $defs: {
      tenantCreate: part(adminTenantCreateV1Schema, 'input', 'POST /admin/v1/tenants body.'),
      tenantUpdate: part(adminTenantUpdateV1Schema, 'input', 'PATCH /admin/v1/tenants/{id} body.'),
      keyCreate: part(adminKeyCreateV1Schema, 'input', 'POST /admin/v1/keys body.'),
      keyUpdate: part(adminKeyUpdateV1Schema, 'input', 'PATCH /admin/v1/keys/{id} body.'),
      tenant: part(adminTenantV1Schema, 'output', 'A tenant (each item of GET /admin/v1/tenants).'),
      key: part(adminKeyV1Schema, 'output', 'A key without its secret (each item of GET /admin/v1/keys).'),
      tenantChange: part(adminTenantChangeV1Schema, 'output', 'POST /admin/v1/tenants (201), PATCH /admin/v1/tenants/{id} (200).'),
      keyChange: part(adminKeyChangeV1Schema, 'output', 'PATCH /admin/v1/keys/{id}, POST /admin/v1/keys/{id}/revoke (200).'),
      keyCreated: part(adminKeyCreatedV1Schema, 'output', 'POST /admin/v1/keys (201): the key is shown this once.'),
      webhookSecret: part(adminWebhookSecretV1Schema, 'output', 'GET /admin/v1/tenants/{id}/webhook-secret (200).'),
      jobDeliveries: part(adminJobDeliveriesV1Schema, 'output', 'GET /admin/v1/jobs/deliveries (200): one job\'s webhook delivery log.'),
      jobReplay: part(adminJobReplayV1Schema, 'input', 'POST /admin/v1/jobs/replay body.'),
      jobReplayed: part(adminJobReplayedV1Schema, 'output', 'POST /admin/v1/jobs/replay (202).'),
      error: part(adminErrorV1Schema, 'output', 'Every refusal of the admin API (4xx and 5xx).'),
      tenantList: part(adminTenantListV1Schema, 'output', 'GET /admin/v1/tenants (200).'),
      keyList: part(adminKeyListV1Schema, 'output', 'GET /admin/v1/keys (200).'),
      limitUse: part(adminLimitUseV1Schema, 'output', 'GET /admin/v1/tenants/{id}/limit-use (200).'),
      spend: part(adminSpendV1Schema, 'output', 'GET /admin/v1/spend (200).'),
      requestList: part(adminRequestListV1Schema, 'output', 'GET /admin/v1/requests (200), newest first.'),
      request: part(adminRequestV1Schema, 'output', 'GET /admin/v1/requests/{requestId} (200).'),
      jobList: part(adminJobListV1Schema, 'output', 'GET /admin/v1/jobs (200); each job may carry more fields than listed.'),
      targets: part(adminTargetsV1Schema, 'output', 'GET /admin/v1/targets (200): this instance\'s view of its targets.'),
    },
  };
}
