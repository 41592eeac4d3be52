/**
 * CPU time and peak memory of a process from Linux's /proc: `utime + stime` of `/proc/PID/stat` (the process and
 * its live descendants) and `VmHWM` of `/proc/PID/status`. Elsewhere both read as undefined.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of `/proc/PID/stat` (USER_HZ, 100 on Linux). */
export const CLOCK_TICKS_PER_SECOND = 100;

/** The parent PID and CPU ticks (user + system) of one `/proc/PID/stat` line. */
export function parseProcStat(line: string): { readonly parent: number; readonly ticks: number } | undefined {
  // The command name sits in parentheses and may hold spaces: count fields after its closing one.
  const fields = line.slice(line.lastIndexOf(')') + 2).split(' ');
  const parent = Number(fields[1]);
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(parent) && Number.isFinite(ticks) ? { parent, ticks } : undefined;
}

/** `VmHWM` of a `/proc/PID/status` text, in bytes. */
export function parseVmHwmBytes(status: string): number | undefined {
  const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(status);
  return match === null ? undefined : Number(match[1]) * 1024;
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Every live process id with its parent. */
function processTable(): Map<number, number> {
  const table = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = read(`/proc/${entry}/stat`);
    const parsed = stat === undefined ? undefined : parseProcStat(stat);
    if (parsed !== undefined) table.set(Number(entry), parsed.parent);
  }
  return table;
}

/** `pid` and its live descendants. */
export function processTree(pid: number): number[] {
  const table = processTable();
  const tree = [pid];
  for (let index = 0; index < tree.length; index += 1) for (const [child, parent] of table) if (parent === tree[index]) tree.push(child);
  return tree;
}

/** CPU seconds (user + system) used so far by `pid` and its live descendants. */
export function cpuSeconds(pid: number): number | undefined {
  let ticks = 0;
  let found = false;
  for (const member of processTree(pid)) {
    const stat = read(`/proc/${member}/stat`);
    const parsed = stat === undefined ? undefined : parseProcStat(stat);
    if (parsed === undefined) continue;
    ticks += parsed.ticks;
    found = true;
  }
  return found ? ticks / CLOCK_TICKS_PER_SECOND : undefined;
}

/** Peak resident set size of `pid` plus its live descendants' peaks, in bytes. */
export function peakRssBytes(pid: number): number | undefined {
  let total = 0;
  let found = false;
  for (const member of processTree(pid)) {
    const status = read(`/proc/${member}/status`);
    const bytes = status === undefined ? undefined : parseVmHwmBytes(status);
    if (bytes === undefined) continue;
    total += bytes;
    found = true;
  }
  return found ? total : undefined;
}
