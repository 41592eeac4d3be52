import { z } from 'zod';
import { gatewayJobCancelV1Schema, gatewayJobCreateRequestV1Schema, gatewayJobErrorV1Schema, gatewayJobListV1Schema, gatewayJobV1Schema } from './gateway-jobs-api-v1.js';

function part(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _schema, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  return rest;
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
      createRequest: part(gatewayJobCreateRequestV1Schema, 'input'),
      job: part(gatewayJobV1Schema, 'output'),
      cancel: part(gatewayJobCancelV1Schema, 'output'),
      list: part(gatewayJobListV1Schema, 'output'),
      error: part(gatewayJobErrorV1Schema, 'output'),
    },
  };
}
