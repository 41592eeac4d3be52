import { cliArguments, processIo } from './cli-io.js';
import { recoverCommand } from './recover-command.js';

process.exitCode = await recoverCommand(cliArguments(), processIo);
