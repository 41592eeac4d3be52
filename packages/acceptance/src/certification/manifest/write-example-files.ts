import { writeFile } from 'node:fs/promises';
import { createProtocolEngineV1 } from '@tokenforge/protocol-engine';
import { createBuiltinTokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';
import { certificationManifestJsonSchemaV1 } from './certification-manifest-v1.js';
import { createCertificationManifestTemplate } from './manifest-template.js';
import { registeredFamiliesOf } from './registered-families.js';

/** The committed files under `examples/certification/`, as the code generates them. */
export function certificationExampleFiles(): { readonly schema: string; readonly example: string } {
  const suite = createBuiltinTokenForgeProtocolSuiteV1();
  const engine = createProtocolEngineV1({ registry: suite.registry });
  const template = createCertificationManifestTemplate(registeredFamiliesOf(engine, suite));
  return {
    schema: `${JSON.stringify(certificationManifestJsonSchemaV1(), null, 2)}\n`,
    example: `${JSON.stringify({ $schema: './manifest.schema.json', ...template.manifest }, null, 2)}\n`,
  };
}

/** Writes the generated files into `directory` (used to refresh the committed examples). */
export async function writeCertificationExampleFiles(directory: string): Promise<void> {
  const files = certificationExampleFiles();
  await writeFile(`${directory}/manifest.schema.json`, files.schema);
  await writeFile(`${directory}/protocol-engine-real.example.json`, files.example);
}
