import { readdirSync, readFileSync } from 'node:fs';

/** The live (not zombie) processes of process group `pgid`, read from /proc. */
export function processGroupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] !== 'Z' && Number(fields[2]) === pgid) members.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return members;
}
