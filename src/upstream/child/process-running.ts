// Whether a local legacy child is still running, read from Linux's /proc. The gather window closes
// a round once the legacy server is known to wait (bridge/gather.ts): a child none of whose threads
// runs has written everything it was about to write for now. Every thread is read, not only the
// main one: some servers write from another thread while the event loop waits for it (Python's
// anyio hands stdout writes to a worker thread), and a thread that wakes another makes it runnable
// before it sleeps itself, so a process with work left always shows a running thread. The main
// thread is read first: the usual answer while it still works, for a tenth of the cost.
import { closeSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';

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

/** Room for any /proc stat line (a few hundred bytes); a longer file (a long children list) is read whole. */
const READ_BUFFER = Buffer.alloc(4096);

// One open, read and close: readFileSync would also fstat the file and read again to find its end,
// doubling the cost of a read that the gather makes once per round.
function read(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const n = readSync(fd, READ_BUFFER, 0, READ_BUFFER.length, 0);
    return n < READ_BUFFER.length ? READ_BUFFER.toString('latin1', 0, n) : readFileSync(path, 'latin1');
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

function threadIds(pid: number): string[] {
  try {
    return readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
}

function isRunning(statPath: string): boolean | undefined {
  const stat = read(statPath);
  const state = stat === undefined ? undefined : statState(stat);
  return state === undefined ? undefined : RUNNING_STATES.has(state);
}

/**
 * True when a thread of `pid` or of one of its first descendants is running (`main`: their main
 * threads only); false when they all wait; undefined when this cannot be known (no /proc, the
 * process is gone): the caller then relies on timing alone.
 */
export function processTreeRunning(pid: number, threads: 'all' | 'main' = 'all'): boolean | undefined {
  const queue = [pid];
  let known = false;
  for (let seen = 0; seen < queue.length && seen < MAX_PROCESSES; seen++) {
    const p = queue[seen]!;
    const main = isRunning(`/proc/${p}/stat`);
    if (main === undefined) continue;
    known = true;
    if (main) return true;
    if (threads === 'all') for (const tid of threadIds(p)) if (tid !== String(p) && isRunning(`/proc/${p}/task/${tid}/stat`) === true) return true;
    const children = read(`/proc/${p}/task/${p}/children`);
    if (children) queue.push(...childPids(children.trim()));
  }
  return known ? false : undefined;
}
