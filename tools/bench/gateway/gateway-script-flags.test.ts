import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { gatewayScriptNodeFlags, nodeFlagsOf } from './gateway-script-flags.js';

describe('gateway script node flags', () => {
  it('takes the flags between node and the script, none of the script arguments', () => {
    expect(nodeFlagsOf('node --max-semi-space-size=8 --trace-gc scripts/cli.mjs --port 0')).toEqual(['--max-semi-space-size=8', '--trace-gc']);
    expect(nodeFlagsOf('node scripts/cli.mjs --port 0')).toEqual([]);
    expect(() => nodeFlagsOf('tsx scripts/cli.ts')).toThrow(/not a node command/);
  });

  it('reads the root gateway script the README runs', () => {
    const root = fileURLToPath(new URL('../../../package.json', import.meta.url));
    expect(gatewayScriptNodeFlags(root)).toEqual(['--max-semi-space-size=8']);
  });
});
