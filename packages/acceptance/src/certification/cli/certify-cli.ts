import { cliArguments, processIo } from './cli-io.js';
import { certifyCommand } from './certify-command.js';

process.exitCode = await certifyCommand(cliArguments(), processIo);
