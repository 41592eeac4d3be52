import { z } from 'zod';
import { gatewayJobCancelV1Schema, gatewayJobErrorV1Schema } from './gateway-jobs-api-v1.js';
import { gatewayJobCreateRequestV2Schema, gatewayJobListQueryV2Schema, gatewayJobListV2Schema, gatewayJobV2Schema } from './gateway-jobs-api-v2.js';

function part(schema: z.ZodType, io: 'input' | 'output', description: string): Record<string, unknown> {
  const { $schema: _schema, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  return { description, ...rest };
}

/**
 * The JSON Schema of the jobs API, version 2 (draft 2020-12), generated from the zod schemas. The committed copy
 * `gateway-jobs-api-v2.schema.json` is what client tools read; a test keeps it current.
 */
export function gatewayJobsApiV2JsonSchema(): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://tokenforge.dev/schemas/gateway-jobs-api-v2.schema.json',
    title: 'TokenForge gateway jobs API, version 2',
    $defs: {
      createRequest: part(gatewayJobCreateRequestV2Schema, 'input', 'POST /v2/jobs body: the model, an optional idempotency key and callback URL, and the task fields.'),
      job: part(gatewayJobV2Schema, 'output', 'The job resource: the answer of POST /v2/jobs (202) and GET /v2/jobs/{id} (200), and each list item.'),
      cancel: part(gatewayJobCancelV1Schema, 'output', 'POST /v2/jobs/{id}/cancel (200): the provider took the cancel request.'),
      listQuery: part(gatewayJobListQueryV2Schema, 'input', 'GET /v2/jobs query parameters: filters answered from the store.'),
      list: part(gatewayJobListV2Schema, 'output', 'GET /v2/jobs (200): the caller\'s jobs, newest first.'),
      error: part(gatewayJobErrorV1Schema, 'output', 'Every refusal of the jobs API (4xx and 5xx); unchanged from version 1.'),
    },
  };
}
