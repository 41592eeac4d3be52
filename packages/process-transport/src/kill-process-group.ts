/** Sends SIGKILL to the whole process group led by `pid` (the child was spawned detached, so it leads one). */
export function killProcessGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // the group is already gone
  }
}
