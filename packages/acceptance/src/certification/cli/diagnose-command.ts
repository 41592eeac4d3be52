import { CertificationError } from '../certification-error.js';
import { diagnoseAsyncJobs, formatDiagnosis } from '../diagnose/diagnose-async-jobs.js';
import { readEnvFile } from '../env/read-env-file.js';
import { REAL_PROVIDER_CALLS_ACK, requireAcknowledgement } from '../run/run-certification.js';
import { parseCliArguments, readJsonFile, runCli, type CliIo } from './cli-io.js';

export const DIAGNOSE_USAGE = `usage: npx --yes pnpm@12.4.2 --filter @tokenforge/acceptance diagnose:protocol-engine-real-async
         --manifest <async-shard.json> --env-file <provider.env> --created-after <UTC timestamp>
         --ack-real-provider-calls ${REAL_PROVIDER_CALLS_ACK}

One read-only engine.jobs.list page per async case: family, matching jobs, state counts and normalized failure
codes. Never starts, reads or cancels a single job; prints no job ids, models, URLs, messages or bodies; never
satisfies certification.

exit status: 0 every list call answered, 1 a list call failed, 2 refused or usage error, 3 failure`;

/** `diagnose:protocol-engine-real-async`: returns the exit status. */
export async function diagnoseCommand(argv: readonly string[], io: CliIo): Promise<number> {
  return runCli(io, async () => {
    const { values } = parseCliArguments(argv, {
      manifest: { type: 'string' },
      'env-file': { type: 'string' },
      'created-after': { type: 'string' },
      'ack-real-provider-calls': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help === true) {
      io.out(DIAGNOSE_USAGE);
      return 0;
    }
    if (values.manifest === undefined || values['created-after'] === undefined) throw new CertificationError('USAGE_INVALID', '--manifest and --created-after are required (see --help)');
    requireAcknowledgement(values['ack-real-provider-calls']);
    if (values['env-file'] === undefined) throw new CertificationError('ENV_FILE_MISSING', 'the diagnosis needs --env-file');
    const manifest = await readJsonFile(values.manifest, 'manifest');
    const env = await readEnvFile(values['env-file']);
    const rows = await diagnoseAsyncJobs({ manifest, env, acknowledgement: values['ack-real-provider-calls'], createdAfter: values['created-after'], log: io.out });
    for (const line of formatDiagnosis(rows)) io.out(line);
    return rows.some((row) => row.error !== undefined) ? 1 : 0;
  });
}
