import { cliArguments, processIo } from './cli-io.js';
import { diagnoseCommand } from './diagnose-command.js';

process.exitCode = await diagnoseCommand(cliArguments(), processIo);
