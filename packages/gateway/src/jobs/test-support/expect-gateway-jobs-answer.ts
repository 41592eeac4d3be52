import type { z } from 'zod';
import { gatewayJobCancelV1Schema, gatewayJobErrorV1Schema, gatewayJobListV1Schema, gatewayJobV1Schema } from '../gateway-jobs-api-v1.js';
import { gatewayJobListV2Schema, gatewayJobV2Schema } from '../gateway-jobs-api-v2.js';

/** The schema a jobs API answer must match, chosen by route and status (not by the answer's own shape). */
export function gatewayJobsAnswerSchema(method: string, path: string, status: number): z.ZodType {
  if (status >= 400) return gatewayJobErrorV1Schema;
  const route = path.split('?')[0] ?? '';
  if (method === 'POST' && route === '/v1/jobs') return gatewayJobV1Schema;
  if (method === 'POST' && route.endsWith('/cancel')) return gatewayJobCancelV1Schema;
  if (method === 'GET' && route === '/v1/jobs') return gatewayJobListV1Schema;
  if (method === 'GET' && route.startsWith('/v1/jobs/')) return gatewayJobV1Schema;
  if (method === 'POST' && route === '/v2/jobs') return gatewayJobV2Schema;
  if (method === 'GET' && route === '/v2/jobs') return gatewayJobListV2Schema;
  if (method === 'GET' && route.startsWith('/v2/jobs/')) return gatewayJobV2Schema;
  throw new Error(`not a jobs API route: ${method} ${path}`);
}

/** Throws, naming every problem with its path, unless `json` is what the jobs API schema says this route answers. */
export function expectGatewayJobsAnswer(method: string, path: string, status: number, json: unknown): void {
  const checked = gatewayJobsAnswerSchema(method, path, status).safeParse(json);
  if (!checked.success) {
    const problems = checked.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
    throw new Error(`${method} ${path} answered ${status} outside the jobs API ${path.startsWith('/v2/') ? 'v2' : 'v1'} schema: ${problems}\n${JSON.stringify(json)}`);
  }
}
