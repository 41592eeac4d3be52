/** Writes `gateway-catalogue-v1.schema.json` from the zod schema (run after changing the schema). */
import { writeFileSync } from 'node:fs';
import { gatewayCatalogueV1JsonSchema } from './catalogue-json-schema.js';

writeFileSync(new URL('./gateway-catalogue-v1.schema.json', import.meta.url), `${JSON.stringify(gatewayCatalogueV1JsonSchema(), null, 2)}\n`);
