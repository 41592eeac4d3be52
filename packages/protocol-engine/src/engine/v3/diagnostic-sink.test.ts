import type { ProviderAdapterExecutionV1, ProviderDiagnosticV3 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { isProtocolEngineErrorV1 } from '../../error/v1/protocol-engine-error-v1.js';
import { chatTask, countingBinding, newSignal, registryOf, syncFactory, terminalPart } from '../../test-support/fakes.js';
import { createProtocolEngineV1 } from '../v1/create-protocol-engine-v1.js';

const violation = { status: 'failed', failure: { code: 'protocol-violation', retryable: false } };
const detail: ProviderDiagnosticV3 = { code: 'protocol-violation', rule: 'invalid-event: choices.0.delta.content not a string', location: 'choices.0' };

function failingResponse(report: (input: { reportDiagnostic?: (d: ProviderDiagnosticV3) => void }) => void, requestId?: string) {
  return syncFactory((input) => {
    report(input);
    return {
      kind: 'response',
      acceptance: { state: 'unknown' },
      responseMetadata: requestId === undefined ? {} : { providerRequestId: requestId },
      terminal: violation,
    } as ProviderAdapterExecutionV1;
  });
}

async function execute(factory: ReturnType<typeof syncFactory>, observer?: unknown, stream = false) {
  const engine = createProtocolEngineV1({ registry: registryOf([factory]) });
  return engine.execute({ binding: countingBinding().binding, task: chatTask({ stream }), signal: newSignal(), ...(observer === undefined ? {} : { observer: observer as never }) });
}

describe('observer.onDiagnostic', () => {
  it('delivers the adapter detail with the provider request id, frozen, and keeps it out of the terminal', async () => {
    const seen: ProviderDiagnosticV3[] = [];
    const execution = await execute(failingResponse((input) => input.reportDiagnostic?.(detail), 'req-42'), { onDiagnostic: (d: ProviderDiagnosticV3) => seen.push(d) });
    expect(seen).toEqual([{ ...detail, providerRequestId: 'req-42' }]);
    expect(Object.isFrozen(seen[0])).toBe(true);
    expect(JSON.stringify(execution)).not.toContain('choices.0');
  });

  it('gives the adapter no callback when the host does not listen', async () => {
    const factory = failingResponse(() => undefined);
    await execute(factory);
    await execute(factory, {});
    expect(factory.inputs.map((input) => 'reportDiagnostic' in input)).toEqual([false, false]);
  });

  it('drops a diagnostic that breaks its schema (a value smuggled in, an overlong rule) and ignores a throwing observer', async () => {
    const seen: unknown[] = [];
    const factory = failingResponse((input) => {
      input.reportDiagnostic?.({ ...detail, value: 'secret prompt' } as never);
      input.reportDiagnostic?.({ ...detail, rule: 'x'.repeat(10_000) });
      input.reportDiagnostic?.(detail);
    });
    await execute(factory, { onDiagnostic: (d: unknown) => seen.push(d) });
    expect(seen).toEqual([detail]);
    const execution = await execute(factory, {
      onDiagnostic: () => {
        throw new Error('observer bug');
      },
    });
    expect(execution.kind === 'response' && execution.terminal.status).toBe('failed');
  });

  it('delivers stream diagnostics as they are reported, after the head', async () => {
    const seen: ProviderDiagnosticV3[] = [];
    const factory = syncFactory(
      (input) =>
        ({
          kind: 'stream',
          acceptance: { state: 'accepted' },
          responseMetadata: { providerRequestId: 'req-7' },
          parts: (async function* parts() {
            input.reportDiagnostic?.({ code: 'truncated-stream', rule: 'the body ended mid-event', location: 'sse line 12' });
            yield terminalPart({ status: 'failed', failure: { code: 'truncated-stream', retryable: true } });
          })(),
        }) as ProviderAdapterExecutionV1,
    );
    const execution = await execute(factory, { onDiagnostic: (d: ProviderDiagnosticV3) => seen.push(d) }, true);
    if (execution.kind !== 'stream') throw new Error('expected a stream');
    for await (const event of execution.events) expect(event).toBeUndefined();
    expect((await execution.terminal).status).toBe('failed');
    expect(seen).toEqual([{ code: 'truncated-stream', rule: 'the body ended mid-event', location: 'sse line 12', providerRequestId: 'req-7' }]);
  });

  it('refuses an observer that is not an object as input', async () => {
    const error = await execute(failingResponse(() => undefined), 'not an observer').catch((caught: unknown) => caught);
    expect(isProtocolEngineErrorV1(error) && error.code).toBe('PROTOCOL_ENGINE_INPUT_INVALID');
  });
});
