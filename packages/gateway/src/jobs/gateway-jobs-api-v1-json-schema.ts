import { z } from 'zod';
import { gatewayJobCancelV1Schema, gatewayJobCreateRequestV1Schema, gatewayJobErrorV1Schema, gatewayJobListV1Schema, gatewayJobV1Schema } from './gateway-jobs-api-v1.js';

function part(schema: z.ZodType, io: 'input' | 'output', description: string): Record<string, unknown> {
  const { $schema: _schema, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  return { description, ...rest };
}

/**
 * The JSON Schema of the jobs API, version 1 (draft 2020-12), generated from the zod schemas: one `$defs` entry per
 * body (`createRequest` in, `job`, `cancel`, `list` and `error` out). The committed copy
 * `gateway-jobs-api-v1.schema.json` is what client tools read; a test keeps it current.
 */
export function gatewayJobsApiV1JsonSchema(): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://tokenforge.dev/schemas/gateway-jobs-api-v1.schema.json',
    title: 'TokenForge gateway jobs API, version 1',
    $defs: {
      createRequest: part(gatewayJobCreateRequestV1Schema, 'input', 'POST /v1/jobs body: the model, an optional idempotency key and the task fields; a prompt or an image is required.'),
      job: part(gatewayJobV1Schema, 'output', 'The job resource: the answer of POST /v1/jobs (202) and GET /v1/jobs/{id} (200), and each list item.'),
      cancel: part(gatewayJobCancelV1Schema, 'output', 'POST /v1/jobs/{id}/cancel (200): the provider took the cancel request.'),
      list: part(gatewayJobListV1Schema, 'output', 'GET /v1/jobs?model=NAME or ?recover=TOKEN (200): the caller\'s jobs.'),
      error: part(gatewayJobErrorV1Schema, 'output', 'Every refusal of the jobs API (4xx and 5xx).'),
    },
  };
}
