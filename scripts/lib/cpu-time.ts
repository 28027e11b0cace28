/** CPU time from Linux's /proc/<pid>/stat: the process's own and that of the children it waited for. */
import fs from 'node:fs';

/** utime + stime + cutime + cstime of a /proc/<pid>/stat line, in milliseconds (USER_HZ is 100 on Linux). */
export function cpuMsOf(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14–17 of proc(5); the slice starts at field 3.
  return fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0) * 10;
}

/** This process's CPU time with its waited-for children's, or null without /proc. */
export function ownCpuMs(): number | null {
  try {
    return cpuMsOf(fs.readFileSync('/proc/self/stat', 'utf8'));
  } catch {
    return null;
  }
}
