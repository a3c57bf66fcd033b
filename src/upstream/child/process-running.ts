// Whether a local legacy child is still running, read from Linux's /proc. The gather window closes
// once the legacy session has been quiet for a moment (bridge/gather.ts); a child that the kernel
// preempted between two requests it sends together looks quiet too, and the round split in two on a
// loaded machine. A child whose main thread is runnable has not yet gone back to waiting for input,
// so what it is about to send may belong to the same round. Only the main thread is read
// (/proc/PID/stat shows the thread group leader's state): that is the one an event loop writes from.
import { readFileSync } from 'node:fs';

/** A wrapper (`npx`, `sh -c`, `uv run`) starts the real server as a descendant; follow that far. */
const MAX_PROCESSES = 8;

/** R: running or runnable; D: in uninterruptible sleep (it will run on as soon as the I/O ends). */
const RUNNING_STATES = new Set(['R', 'D']);

/** The state letter in a /proc/PID/stat line; the command name before it may hold spaces and ')'. */
export function statState(stat: string): string | undefined {
  const end = stat.lastIndexOf(')');
  if (end < 0) return undefined;
  const state = stat.charAt(end + 2);
  return state === '' ? undefined : state;
}

/** The PIDs in a /proc/PID/task/TID/children line. */
export function childPids(line: string): number[] {
  return line
    .split(' ')
    .filter((s) => /^[1-9]\d*$/.test(s))
    .map(Number);
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'latin1');
  } catch {
    return undefined;
  }
}

/**
 * True when `pid` or one of its first descendants is running; false when they all wait; undefined
 * when this cannot be known (no /proc, the process is gone): the caller then relies on timing alone.
 */
export function processTreeRunning(pid: number): boolean | undefined {
  const queue = [pid];
  let known = false;
  for (let seen = 0; seen < queue.length && seen < MAX_PROCESSES; seen++) {
    const p = queue[seen]!;
    const stat = read(`/proc/${p}/stat`);
    const state = stat === undefined ? undefined : statState(stat);
    if (state === undefined) continue;
    known = true;
    if (RUNNING_STATES.has(state)) return true;
    const children = read(`/proc/${p}/task/${p}/children`);
    if (children) queue.push(...childPids(children.trim()));
  }
  return known ? false : undefined;
}
