/** Writes `gateway-jobs-api-v1.schema.json` from the zod schemas (run after changing them). */
import { writeFileSync } from 'node:fs';
import { gatewayJobsApiV1JsonSchema } from './gateway-jobs-api-v1-json-schema.js';

writeFileSync(new URL('./gateway-jobs-api-v1.schema.json', import.meta.url), `${JSON.stringify(gatewayJobsApiV1JsonSchema(), null, 2)}\n`);
