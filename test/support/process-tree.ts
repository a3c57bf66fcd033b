// The processes under a pid and whether one still runs, via ps (Linux and macOS): for tests that
// start a process which starts others (npm start, the proxy, its legacy servers) and must leave none.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** pid -> [ppid, args] for every process, via ps (Linux and macOS). */
function processTable(): Map<number, { ppid: number; args: string }> {
  const out = execFileSync('ps', ['-A', '-o', 'pid=,ppid=,args='], { encoding: 'utf8' });
  const table = new Map<number, { ppid: number; args: string }>();
  for (const line of out.split('\n')) {
    const m = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line);
    if (m) table.set(Number(m[1]), { ppid: Number(m[2]), args: m[3] ?? '' });
  }
  return table;
}

export function descendants(pid: number): { pid: number; args: string }[] {
  const table = processTable();
  const found: { pid: number; args: string }[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const [child, info] of table) {
      if (info.ppid !== parent) continue;
      found.push({ pid: child, args: info.args });
      queue.push(child);
    }
  }
  return found;
}

/** Alive and not a zombie (an exited child nobody reaped yet counts as gone). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    try {
      return !execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' })
        .trim()
        .startsWith('Z');
    } catch {
      return false;
    }
  }
}
