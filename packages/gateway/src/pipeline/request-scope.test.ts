import { describe, expect, it } from 'vitest';
import type { RequestTelemetry } from '../telemetry/gateway-telemetry.js';
import { createRequestScope, routeLabel } from './request-scope.js';

describe('createRequestScope', () => {
  it('labels the route with the method and the path, Gemini’s model segment folded, and starts its telemetry under it', () => {
    const started: string[] = [];
    const telemetry = {} as RequestTelemetry;
    const scope = createRequestScope(new Request('http://gateway.test/v1beta/models/gemini-x:streamGenerateContent?alt=sse', { method: 'POST' }), (route) => {
      started.push(route);
      return telemetry;
    });
    expect(scope.route).toBe('POST /v1beta/models/{model}:streamGenerateContent');
    expect(started).toEqual([scope.route]);
    expect(scope.telemetry).toBe(telemetry);
    expect(scope.facts).toEqual({ attempts: [] });
    expect(routeLabel('/v1/chat/completions')).toBe('/v1/chat/completions');
  });

  it('gives every request its own id', () => {
    const ids = new Set(Array.from({ length: 20 }, () => createRequestScope(new Request('http://gateway.test/v1/x'), () => ({}) as RequestTelemetry).requestId));
    expect(ids.size).toBe(20);
  });
});
