// CPU time of one process from /proc/PID/stat: utime + stime of the process itself (not of its
// reaped children), so a bridge's legacy children are never counted as the bridge's cost.
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc times (USER_HZ, 100 on every Linux this runs on). */
const TICKS_PER_SECOND = 100;

/** utime + stime in ms from the text of /proc/PID/stat; the command name may hold spaces and parentheses. */
export function cpuMsFromStat(stat: string): number {
  const end = stat.lastIndexOf(') ');
  if (end === -1) throw new Error('not a /proc/PID/stat line');
  // Fields after the command name start at field 3 (state); utime and stime are fields 14 and 15.
  const fields = stat.slice(end + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) throw new Error('no utime/stime in /proc/PID/stat');
  return ((utime + stime) * 1000) / TICKS_PER_SECOND;
}

export function cpuMsOf(pid: number): number {
  return cpuMsFromStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}
