import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import fc from 'fast-check';
import ts from 'typescript';
import { describe, expect, it, vi } from 'vitest';
import { PROTOCOL_ENGINE_API_VERSION } from '../../contracts/v1/api-version.js';
import {
  PROTOCOL_ENGINE_ERROR_CODES_V1,
  ProtocolEngineErrorV1,
  isProtocolEngineErrorV1,
  type ProtocolEngineErrorCodeV1,
} from './protocol-engine-error-v1.js';

const EXPECTED_PHASES: Record<string, string> = {
  PROTOCOL_ENGINE_REGISTRY_INVALID: 'configuration',
  PROTOCOL_ENGINE_PROTOCOL_UNDECLARED: 'configuration',
  PROTOCOL_ENGINE_FACTORY_MISMATCH: 'configuration',
  PROTOCOL_ENGINE_INPUT_INVALID: 'input',
  PROTOCOL_ENGINE_TARGET_TASK_MISMATCH: 'input',
  PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED: 'input',
  PROTOCOL_ENGINE_FORCED_TOOL_CHOICE_UNSUPPORTED: 'input',
  PROTOCOL_ENGINE_PARALLEL_TOOL_CALLS_UNSUPPORTED: 'input',
  PROTOCOL_ENGINE_HOSTED_TOOL_UNSUPPORTED: 'input',
  PROTOCOL_ENGINE_CONTEXT_MANAGEMENT_UNSUPPORTED: 'input',
  PROTOCOL_ENGINE_STRUCTURED_OUTPUT_CONFLICT: 'input',
  PROTOCOL_ENGINE_CONNECTION_MISMATCH: 'transport',
  PROTOCOL_ENGINE_TRANSPORT_BIND_FAILED: 'transport',
  PROTOCOL_ENGINE_TRANSPORT_FAILED: 'transport',
  PROTOCOL_ENGINE_ADAPTER_OUTPUT_INVALID: 'adapter',
  PROTOCOL_ENGINE_ADAPTER_FAILED: 'adapter',
  PROTOCOL_ENGINE_PROVIDER_FAILED: 'adapter',
  PROTOCOL_ENGINE_ABORTED: 'lifecycle',
  PROTOCOL_ENGINE_STREAM_MISUSE: 'lifecycle',
};

/** Loads the error module into a fresh `vm` realm (transpiled from this very source) and returns its exports. */
function loadInOtherRealm(): { ProtocolEngineErrorV1: typeof ProtocolEngineErrorV1; isProtocolEngineErrorV1: typeof isProtocolEngineErrorV1 } {
  const source = readFileSync(fileURLToPath(new URL('./protocol-engine-error-v1.ts', import.meta.url)), 'utf8');
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  });
  const exports: Record<string, unknown> = {};
  const context = vm.createContext({
    exports,
    require: (specifier: string) => {
      if (specifier.endsWith('api-version.js')) return { PROTOCOL_ENGINE_API_VERSION };
      throw new Error(`unexpected import ${specifier}`);
    },
  });
  vm.runInContext(outputText, context);
  return exports as never;
}

describe('PROTOCOL_ENGINE_ERROR_CODES_V1', () => {
  it('is frozen, prefixed and maps every code to its fixed phase', () => {
    expect(Object.isFrozen(PROTOCOL_ENGINE_ERROR_CODES_V1)).toBe(true);
    const codes = Object.values(PROTOCOL_ENGINE_ERROR_CODES_V1);
    expect(codes.sort()).toEqual(Object.keys(EXPECTED_PHASES).sort());
    for (const [name, code] of Object.entries(PROTOCOL_ENGINE_ERROR_CODES_V1)) {
      expect(code).toBe(`PROTOCOL_ENGINE_${name}`);
      expect(new ProtocolEngineErrorV1(code, 'x').phase).toBe(EXPECTED_PHASES[code]);
    }
  });

  it('refuses an unknown code at construction', () => {
    expect(() => new ProtocolEngineErrorV1('PROTOCOL_ENGINE_NOPE' as ProtocolEngineErrorCodeV1, 'x')).toThrow(TypeError);
  });
});

describe('ProtocolEngineErrorV1', () => {
  it('carries apiVersion, code and phase as enumerable facts and the cause only as a non-enumerable diagnostic', () => {
    const cause = { providerPayload: 'secret body', status: 503 };
    const error = new ProtocolEngineErrorV1(PROTOCOL_ENGINE_ERROR_CODES_V1.TRANSPORT_FAILED, 'the provider transport failed', { cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ProtocolEngineErrorV1');
    expect(error.cause).toBe(cause);
    expect(Object.keys(error).sort()).toEqual(['apiVersion', 'code', 'phase']);
    expect(JSON.stringify(error)).toBe(
      JSON.stringify({ apiVersion: PROTOCOL_ENGINE_API_VERSION, code: 'PROTOCOL_ENGINE_TRANSPORT_FAILED', phase: 'transport' }),
    );
  });
});

describe('isProtocolEngineErrorV1', () => {
  it('recognizes errors of this module and refuses forgeries without the marker or with a wrong phase', () => {
    const error = new ProtocolEngineErrorV1(PROTOCOL_ENGINE_ERROR_CODES_V1.ABORTED, 'aborted');
    expect(isProtocolEngineErrorV1(error)).toBe(true);
    expect(isProtocolEngineErrorV1({ ...error })).toBe(false);
    const marker = Symbol.for('tokenforge.protocol-engine-error.v1');
    const forged = { [marker]: true, apiVersion: PROTOCOL_ENGINE_API_VERSION, code: 'PROTOCOL_ENGINE_ABORTED', phase: 'lifecycle' };
    expect(isProtocolEngineErrorV1(forged)).toBe(true);
    expect(isProtocolEngineErrorV1({ ...forged, phase: 'input' })).toBe(false);
    expect(isProtocolEngineErrorV1({ ...forged, apiVersion: 'tokenforge-protocol-engine/v2' })).toBe(false);
    expect(isProtocolEngineErrorV1({ ...forged, code: 'PROTOCOL_ENGINE_UNKNOWN' })).toBe(false);
  });

  it('works across node:vm realms in both directions', () => {
    const other = loadInOtherRealm();
    const foreign = new other.ProtocolEngineErrorV1(PROTOCOL_ENGINE_ERROR_CODES_V1.STREAM_MISUSE, 'misuse');
    expect(foreign instanceof Error).toBe(false);
    expect(foreign instanceof ProtocolEngineErrorV1).toBe(false);
    expect(isProtocolEngineErrorV1(foreign)).toBe(true);
    const local = new ProtocolEngineErrorV1(PROTOCOL_ENGINE_ERROR_CODES_V1.INPUT_INVALID, 'bad');
    expect(other.isProtocolEngineErrorV1(local)).toBe(true);
    expect(other.isProtocolEngineErrorV1(new Error('plain'))).toBe(false);
  });

  it('works across a second loaded copy of the package', async () => {
    vi.resetModules();
    const copy = await import('../../index.js');
    expect(copy.ProtocolEngineErrorV1).not.toBe(ProtocolEngineErrorV1);
    const foreign = new copy.ProtocolEngineErrorV1(copy.PROTOCOL_ENGINE_ERROR_CODES_V1.ADAPTER_FAILED, 'failed');
    expect(foreign instanceof ProtocolEngineErrorV1).toBe(false);
    expect(isProtocolEngineErrorV1(foreign)).toBe(true);
    expect(copy.isProtocolEngineErrorV1(new ProtocolEngineErrorV1(PROTOCOL_ENGINE_ERROR_CODES_V1.ADAPTER_FAILED, 'failed'))).toBe(true);
  });

  it('never throws on hostile input', () => {
    const throwing = new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
        getPrototypeOf() {
          throw new Error('trap');
        },
      },
    );
    const { proxy: revoked, revoke } = Proxy.revocable({}, {});
    revoke();
    const marker = Symbol.for('tokenforge.protocol-engine-error.v1');
    const huge = { [marker]: true, apiVersion: PROTOCOL_ENGINE_API_VERSION, code: 'P'.repeat(10_000_000), phase: 'input' };
    const getterBomb = Object.defineProperty({ [marker]: true }, 'apiVersion', {
      get() {
        throw new Error('boom');
      },
    });
    for (const value of [null, undefined, 0, '', 'PROTOCOL_ENGINE_ABORTED', Symbol('x'), () => undefined, throwing, revoked, huge, getterBomb]) {
      expect(isProtocolEngineErrorV1(value)).toBe(false);
    }
    fc.assert(
      fc.property(fc.anything({ withObjectString: true, withNullPrototype: true, withBigInt: true }), (value) => {
        expect(isProtocolEngineErrorV1(value)).toBe(false);
      }),
    );
  });
});
