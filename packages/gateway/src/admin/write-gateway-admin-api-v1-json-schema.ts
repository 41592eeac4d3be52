/** Writes `gateway-admin-api-v1.schema.json` from the zod schemas (run after changing them). */
import { writeFileSync } from 'node:fs';
import { gatewayAdminApiV1JsonSchema } from './gateway-admin-api-v1-json-schema.js';

writeFileSync(new URL('./gateway-admin-api-v1.schema.json', import.meta.url), `${JSON.stringify(gatewayAdminApiV1JsonSchema(), null, 2)}\n`);
