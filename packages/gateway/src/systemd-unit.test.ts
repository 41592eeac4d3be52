import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const UNIT = fileURLToPath(new URL('../examples/tokenforge-gateway.service', import.meta.url));
const SYSTEMD_ANALYZE = '/usr/bin/systemd-analyze';

describe('the systemd unit of docs/deploying.md (packages/gateway/examples/tokenforge-gateway.service)', () => {
  it('runs the bin with node directly, reloads with SIGHUP and gives the drain time to stop', () => {
    const unit = readFileSync(UNIT, 'utf8');
    expect(unit).toMatch(/^ExecStart=\/usr\/bin\/node --max-semi-space-size=8 \S+\/@tokenforge\/gateway\/dist\/cli\.js /m);
    expect(unit).toMatch(/^ExecReload=\/bin\/kill -HUP \$MAINPID$/m);
    expect(unit).toMatch(/^TimeoutStopSec=20$/m);
  });

  // The machines of this project have systemd-analyze (Debian's systemd package); the skip is for other hosts.
  it.runIf(existsSync(SYSTEMD_ANALYZE))('passes systemd-analyze verify', () => {
    const verified = spawnSync(SYSTEMD_ANALYZE, ['verify', UNIT], { encoding: 'utf8' });
    expect(verified.stderr).toBe('');
    expect(verified.status).toBe(0);
  });
});
