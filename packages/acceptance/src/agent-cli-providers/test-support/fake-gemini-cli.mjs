#!/usr/bin/env node
// A stand-in for Gemini CLI's protocol side, for the gateway's error paths without the agent-clients install. What it
// does is picked by the model it is told to use (`-m`, the catalogue target's model): `text` answers in Gemini CLI's
// stream-json, `slow-text` the same after 1 s,
// `not-signed-in` says so on stderr and exits 41 (Gemini CLI's FatalAuthenticationError), `exit-nonzero` exits 3 after
// a stderr message, `not-protocol` prints a line that is not JSON, `stall` starts a grandchild and waits forever.
import { spawn } from 'node:child_process';

const modelAt = process.argv.indexOf('-m');
const mode = modelAt >= 0 ? process.argv[modelAt + 1] : 'text';
const line = (document) => process.stdout.write(`${JSON.stringify(document)}\n`);
const SECRET = 'FAKE-CLI-OWN-MESSAGE-5e2d';

switch (mode) {
  case 'text':
    line({ type: 'init', session_id: 's', model: 'fake' });
    line({ type: 'message', role: 'assistant', content: 'Hello from the fake CLI.', delta: true });
    line({ type: 'result', status: 'success', stats: { input_tokens: 5, output_tokens: 4 } });
    break;
  case 'slow-text':
    setTimeout(() => {
      line({ type: 'message', role: 'assistant', content: 'Hello from the fake CLI.', delta: true });
      line({ type: 'result', status: 'success', stats: { input_tokens: 5, output_tokens: 4 } });
    }, 1000);
    break;
  case 'not-signed-in':
    process.stderr.write(`Please set an Auth method in your settings (${SECRET})\n`);
    process.exitCode = 41;
    break;
  case 'exit-nonzero':
    line({ type: 'init', session_id: 's', model: 'fake' });
    process.stderr.write(`fatal: something broke (${SECRET})\n`);
    process.exitCode = 3;
    break;
  case 'not-protocol':
    process.stdout.write(`Welcome! This is not the documented protocol (${SECRET})\n`);
    break;
  case 'stall': {
    line({ type: 'init', session_id: 's', model: 'fake' });
    const grandchild = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    process.stderr.write(`grandchild ${grandchild.pid}\n`);
    setInterval(() => {}, 1000);
    break;
  }
  default:
    process.exitCode = 64;
}
