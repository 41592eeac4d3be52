import { z } from 'zod';
import { gatewayCatalogueV1Schema } from './gateway-catalogue-v1.js';

/**
 * The JSON Schema of the catalogue (draft 2020-12), generated from the zod schema. The committed copy
 * `gateway-catalogue-v1.schema.json` is what editors and other tools read; a test keeps it current.
 */
export function gatewayCatalogueV1JsonSchema(): Record<string, unknown> {
  return {
    $id: 'https://tokenforge.dev/schemas/gateway-catalogue-v1.schema.json',
    title: 'TokenForge gateway catalogue, version 1',
    ...z.toJSONSchema(gatewayCatalogueV1Schema, { io: 'input', unrepresentable: 'any' }),
  };
}
