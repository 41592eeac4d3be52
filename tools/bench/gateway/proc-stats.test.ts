import { describe, expect, it } from 'vitest';
import { cpuSeconds, parseProcStat, parseVmHwmBytes, peakRssBytes, processTree } from './proc-stats.js';

describe('proc stats', () => {
  it('reads parent and user + system ticks after a command name holding spaces and parentheses', () => {
    const line = '4242 (node (my gw)) S 17 4242 4242 0 -1 4194560 1000 0 0 0 250 75 0 0 20 0 11 0 123 456 789';
    expect(parseProcStat(line)).toEqual({ parent: 17, ticks: 325 });
  });

  it('reads VmHWM in bytes', () => {
    expect(parseVmHwmBytes('Name:\tnode\nVmPeak:\t  900 kB\nVmHWM:\t   51200 kB\nVmRSS:\t 40000 kB\n')).toBe(51200 * 1024);
    expect(parseVmHwmBytes('Name:\tnode\n')).toBeUndefined();
  });

  it.runIf(process.platform === 'linux')('measures this process: CPU grows with work, peak RSS is positive', () => {
    const before = cpuSeconds(process.pid) ?? Number.NaN;
    let sink = 0;
    const until = Date.now() + 120;
    while (Date.now() < until) sink += Math.sqrt(sink + 1);
    expect(sink).toBeGreaterThan(0);
    expect((cpuSeconds(process.pid) ?? Number.NaN) - before).toBeGreaterThan(0);
    expect(peakRssBytes(process.pid)).toBeGreaterThan(10 * 1024 * 1024);
    expect(processTree(process.pid)[0]).toBe(process.pid);
  });
});
