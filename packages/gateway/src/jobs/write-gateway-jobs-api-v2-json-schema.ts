/** Writes `gateway-jobs-api-v2.schema.json` from the zod schemas (run after changing them). */
import { writeFileSync } from 'node:fs';
import { gatewayJobsApiV2JsonSchema } from './gateway-jobs-api-v2-json-schema.js';

writeFileSync(new URL('./gateway-jobs-api-v2.schema.json', import.meta.url), `${JSON.stringify(gatewayJobsApiV2JsonSchema(), null, 2)}\n`);
