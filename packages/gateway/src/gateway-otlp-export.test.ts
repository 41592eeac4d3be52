import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { killAll, startGatewayProcess } from './test-support/gateway-processes.js';

interface ExportedSpan {
  readonly name: string;
  readonly attributes?: readonly { readonly key: string; readonly value: Record<string, unknown> }[];
}

interface TraceExport {
  readonly resourceSpans: readonly {
    readonly resource: { readonly attributes: readonly { readonly key: string; readonly value: { readonly stringValue?: string } }[] };
    readonly scopeSpans: readonly { readonly spans: readonly ExportedSpan[] }[];
  }[];
}

afterAll(killAll);

describe('OpenTelemetry from the standard environment, configured by the CLI', () => {
  it('exports the gateway spans over OTLP/HTTP to the endpoint OTEL_EXPORTER_OTLP_ENDPOINT names', async () => {
    const exports: { path: string; body: TraceExport }[] = [];
    const receiver: Server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        exports.push({ path: request.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as TraceExport });
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    try {
      const gateway = await startGatewayProcess([], {
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_SERVICE_NAME: 'gateway-under-test',
        OTEL_TRACES_EXPORTER: 'otlp',
        OTEL_METRICS_EXPORTER: 'none',
        OTEL_LOGS_EXPORTER: 'none',
        OTEL_BSP_SCHEDULE_DELAY: '100',
      });
      const key = /client key: (\S+)/.exec(gateway.stdout)?.[1] ?? '';
      const response = await fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'sim-openai-chat', messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(response.status).toBe(200);
      // SIGTERM flushes what the batch processor still holds.
      expect(await gateway.stop()).toBe(0);
      const traces = exports.filter((entry) => entry.path === '/v1/traces');
      expect(traces.length).toBeGreaterThan(0);
      const resources = traces.flatMap((entry) => entry.body.resourceSpans);
      const serviceNames = resources.map((resource) => resource.resource.attributes.find((attribute) => attribute.key === 'service.name')?.value.stringValue);
      expect(serviceNames).toContain('gateway-under-test');
      const spans = resources.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans));
      const models = spans.flatMap((span) => (span.attributes ?? []).filter((attribute) => attribute.key === 'gen_ai.request.model').map((attribute) => attribute.value.stringValue));
      expect(models).toContain('sim-openai-chat');
      expect(spans.some((span) => (span.attributes ?? []).some((attribute) => attribute.key === 'gen_ai.operation.name'))).toBe(true);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  }, 60_000);
});
