import { readFile } from 'node:fs/promises';
import { createProtocolEngineV1 } from '@tokenforge/protocol-engine';
import { createBuiltinTokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';
import { describe, expect, it } from 'vitest';
import { certificationManifestV1Schema } from './certification-manifest-v1.js';
import { registeredFamiliesOf } from './registered-families.js';
import { validateCertificationManifest } from './validate-manifest.js';
import { certificationExampleFiles } from './write-example-files.js';
import { worstCaseRequests } from './worst-case-requests.js';

const examples = new URL('../../../../../examples/certification/', import.meta.url);
const REFRESH = 'npx tsx -e "import(\'./packages/acceptance/src/certification/manifest/write-example-files.ts\').then((m) => m.writeCertificationExampleFiles(\'examples/certification\'))"';

describe('committed certification examples', () => {
  const generated = certificationExampleFiles();

  it('manifest.schema.json is the JSON Schema generated from the zod schema', async () => {
    const committed = await readFile(new URL('manifest.schema.json', examples), 'utf8');
    expect(committed, `regenerate with: ${REFRESH}`).toBe(generated.schema);
  });

  it('the example manifest is the generated template and validates offline over every registered family', async () => {
    const committed = await readFile(new URL('protocol-engine-real.example.json', examples), 'utf8');
    expect(committed, `regenerate with: ${REFRESH}`).toBe(generated.example);
    const suite = createBuiltinTokenForgeProtocolSuiteV1();
    const engine = createProtocolEngineV1({ registry: suite.registry });
    const validation = validateCertificationManifest(JSON.parse(committed), registeredFamiliesOf(engine, suite));
    expect(validation.problems).toEqual([]);
    expect(validation.ok).toBe(true);
    const covered = new Set(validation.manifest?.cases.map((item) => item.target.capability.protocolFamily));
    expect([...covered].sort()).toEqual([...engine.protocolFamilies]);
    expect(engine.protocolFamilies).toHaveLength(9);
  });

  it('the example request cap is the exact worst case', async () => {
    const manifest = certificationManifestV1Schema.parse(JSON.parse(generated.example));
    expect(manifest.caps.maxRequests).toBe(worstCaseRequests(manifest).total);
  });

  it('the example names environment variables, never secret values', async () => {
    const manifest = certificationManifestV1Schema.parse(JSON.parse(generated.example));
    for (const item of manifest.cases) {
      const names = Object.values(item.connection.credentials).filter((value) => value !== item.connection.credentials.type);
      for (const name of names) expect(name).toMatch(/^[A-Z_][A-Z0-9_]*$/);
    }
  });
});
