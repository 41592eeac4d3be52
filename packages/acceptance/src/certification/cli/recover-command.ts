import { CertificationError } from '../certification-error.js';
import { readEnvFile } from '../env/read-env-file.js';
import { recoverAsyncShard } from '../recover/recover-async-shard.js';
import { REAL_PROVIDER_CALLS_ACK, requireAcknowledgement } from '../run/run-certification.js';
import { parseCliArguments, readJsonFile, runCli, type CliIo } from './cli-io.js';

export const RECOVER_USAGE = `usage: npx --yes pnpm@12.4.2 --filter @tokenforge/acceptance recover:protocol-engine-real-shard
         --manifest <async-shard.json> --failure-evidence <polling-exhausted.json> --env-file <provider.env>
         --output <recovered-success.json> --ack-real-provider-calls ${REAL_PROVIDER_CALLS_ACK}

Recovers the one accepted async case of a run that stopped at its polling bound, without resubmitting: reads the
provider's job list (one call, or the fewest pages the provider needs for the window), requires exactly one matching
job in the original submission window, and writes success evidence only when that job succeeded.

exit status: 0 success evidence written, 1 non-success evidence written, 2 refused or usage error, 3 failure`;

/** `recover:protocol-engine-real-shard`: returns the exit status. */
export async function recoverCommand(argv: readonly string[], io: CliIo): Promise<number> {
  return runCli(io, async () => {
    const { values } = parseCliArguments(argv, {
      manifest: { type: 'string' },
      'failure-evidence': { type: 'string' },
      'env-file': { type: 'string' },
      output: { type: 'string' },
      'ack-real-provider-calls': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help === true) {
      io.out(RECOVER_USAGE);
      return 0;
    }
    if (values.manifest === undefined || values['failure-evidence'] === undefined || values.output === undefined) {
      throw new CertificationError('USAGE_INVALID', '--manifest, --failure-evidence and --output are required (see --help)');
    }
    requireAcknowledgement(values['ack-real-provider-calls']);
    if (values['env-file'] === undefined) throw new CertificationError('ENV_FILE_MISSING', 'the recovery needs --env-file');
    const manifest = await readJsonFile(values.manifest, 'manifest');
    const failureEvidence = await readJsonFile(values['failure-evidence'], 'evidence');
    const env = await readEnvFile(values['env-file']);
    const result = await recoverAsyncShard({ manifest, failureEvidence, env, acknowledgement: values['ack-real-provider-calls'], outputPath: values.output, log: io.out });
    return result.ok ? 0 : 1;
  });
}
