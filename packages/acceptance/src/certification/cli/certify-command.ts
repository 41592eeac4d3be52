import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createProtocolEngineV1 } from '@tokenforge/protocol-engine';
import { createBuiltinTokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';
import { CertificationError } from '../certification-error.js';
import { readEnvFile } from '../env/read-env-file.js';
import { formatVerification, verifyCertificationEvidence } from '../evidence/verify-evidence.js';
import { createCertificationManifestTemplate } from '../manifest/manifest-template.js';
import { registeredFamiliesOf } from '../manifest/registered-families.js';
import { validateCertificationManifest, type ManifestValidationV1 } from '../manifest/validate-manifest.js';
import { REAL_PROVIDER_CALLS_ACK, requireAcknowledgement, runCertification } from '../run/run-certification.js';
import { parseCliArguments, readJsonFile, runCli, type CliIo } from './cli-io.js';

export const CERTIFY_USAGE = `usage: npx --yes pnpm@12.4.2 certify:protocol-engine-real --manifest <suite.json>
         validate the manifest offline (default; no network)
       npx --yes pnpm@12.4.2 certify:protocol-engine-real --manifest <suite.json> --run --env-file <.env>
         --ack-real-provider-calls ${REAL_PROVIDER_CALLS_ACK} [--evidence <file>]
         call the real providers and write evidence (mode 0600)
       npx --yes pnpm@12.4.2 certify:protocol-engine-real --manifest <suite.json> --verify <evidence.json> [<evidence.json> ...]
         say per registered family whether real success evidence exists
       npx --yes pnpm@12.4.2 certify:protocol-engine-real --write-template <file>
         write a manifest template for every registered family, caps at the exact worst case

exit status: 0 valid / run succeeded / every family certified, 1 problems found, 2 refused or usage error, 3 failure`;

function usageError(message: string): never {
  throw new CertificationError('USAGE_INVALID', message);
}

function parse(argv: readonly string[]) {
  return parseCliArguments(
    argv,
    {
      manifest: { type: 'string' },
      run: { type: 'boolean' },
      'env-file': { type: 'string' },
      'ack-real-provider-calls': { type: 'string' },
      evidence: { type: 'string' },
      verify: { type: 'string', multiple: true },
      'write-template': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    true,
  );
}

function engineAndFamilies() {
  const suite = createBuiltinTokenForgeProtocolSuiteV1();
  const engine = createProtocolEngineV1({ registry: suite.registry });
  return { suite, engine, registered: registeredFamiliesOf(engine, suite) };
}

/** Report lines of an offline validation. */
export function formatValidation(validation: ManifestValidationV1): string[] {
  if (!validation.ok) {
    return [`manifest INVALID: ${validation.problems.length} problem(s)`, ...validation.problems.map((problem) => `  ${problem.code} at ${problem.where}: ${problem.message}`)];
  }
  const manifest = validation.manifest;
  const worstCase = validation.worstCase;
  if (manifest === undefined || worstCase === undefined) return ['manifest INVALID'];
  return [
    `manifest valid (${validation.manifestFingerprint ?? ''})`,
    `  ${manifest.cases.length} case(s) covering ${validation.requiredFamilies.length} ${manifest.shard === undefined ? 'registered' : 'shard'} famil${validation.requiredFamilies.length === 1 ? 'y' : 'ies'}`,
    `  worst case: ${worstCase.executionStarts} execution start(s) + ${worstCase.asyncGetObservations} async get(s) + ${worstCase.asyncListObservations} async list(s) = ${worstCase.total} request(s), cap ${manifest.caps.maxRequests}`,
    `  duration cap ${manifest.caps.maxDurationMs} ms`,
    '  offline validation proves the suite is ready, not that any provider was called',
  ];
}

function defaultEvidencePath(): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return resolve('certification-evidence', `protocol-engine-real-${stamp}.json`);
}

/** `pnpm certify:protocol-engine-real`: returns the exit status. */
export async function certifyCommand(argv: readonly string[], io: CliIo): Promise<number> {
  return runCli(io, async () => {
    const { values, positionals } = parse(argv);
    if (values.help === true) {
      io.out(CERTIFY_USAGE);
      return 0;
    }
    const verifyFiles = values.verify === undefined ? [] : [...values.verify, ...positionals];
    if (values.verify === undefined && positionals.length > 0) usageError('unexpected arguments (see --help)');

    if (values['write-template'] !== undefined) {
      if (values.run === true || values.verify !== undefined) usageError('--write-template cannot be combined with --run or --verify');
      const { registered } = engineAndFamilies();
      const template = createCertificationManifestTemplate(registered);
      let handle;
      try {
        handle = await open(values['write-template'], 'wx', 0o600);
      } catch {
        throw new CertificationError('OUTPUT_EXISTS', 'the template file exists or cannot be created');
      }
      try {
        await handle.writeFile(`${JSON.stringify(template.manifest, null, 2)}\n`, 'utf8');
      } finally {
        await handle.close();
      }
      io.out(`template written: ${template.manifest.cases.length} case(s), request cap ${template.manifest.caps.maxRequests} (exact worst case)`);
      for (const family of template.familiesWithoutTemplate) io.out(`  no template case for ${family}: add one by hand`);
      return template.familiesWithoutTemplate.length === 0 ? 0 : 1;
    }

    if (values.manifest === undefined) {
      usageError(
        '--manifest is required: it names the providers and models to certify. Make one with\n' +
          '  npx --yes pnpm@12.4.2 certify:protocol-engine-real --write-template suite.json\n' +
          'fill in each case (origin, basePath, model, the names of the key variables), then\n' +
          '  npx --yes pnpm@12.4.2 certify:protocol-engine-real --manifest suite.json\n' +
          '(see --help)',
      );
    }
    if (values.run === true && values.verify !== undefined) usageError('--run and --verify are separate commands');
    const manifestDocument = await readJsonFile(values.manifest, 'manifest');

    if (values.run === true) {
      requireAcknowledgement(values['ack-real-provider-calls']);
      if (values['env-file'] === undefined) throw new CertificationError('ENV_FILE_MISSING', '--run needs --env-file');
      const env = await readEnvFile(values['env-file']);
      const result = await runCertification({
        manifest: manifestDocument,
        env,
        acknowledgement: values['ack-real-provider-calls'],
        evidencePath: values.evidence ?? defaultEvidencePath(),
        log: io.out,
      });
      io.out(`evidence written (mode 0600): ${result.evidencePath}`);
      return result.ok ? 0 : 1;
    }
    if (values['env-file'] !== undefined || values['ack-real-provider-calls'] !== undefined || values.evidence !== undefined) {
      usageError('--env-file, --ack-real-provider-calls and --evidence only apply with --run');
    }

    const { engine, registered } = engineAndFamilies();
    const validation = validateCertificationManifest(manifestDocument, registered);
    for (const line of formatValidation(validation)) io.out(line);
    if (values.verify === undefined) return validation.ok ? 0 : 1;
    if (validation.manifest === undefined) return 1;
    if (verifyFiles.length === 0) usageError('--verify needs at least one evidence file');
    const documents = [];
    for (const [index, file] of verifyFiles.entries()) documents.push({ label: `#${index + 1}`, content: await readJsonFile(file, 'evidence') });
    const verification = verifyCertificationEvidence(validation.manifest, engine.protocolFamilies, documents);
    io.out('');
    for (const line of formatVerification(verification)) io.out(line);
    return verification.ok && validation.ok ? 0 : 1;
  });
}
