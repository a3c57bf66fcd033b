// Whether a local legacy child is still running, read from Linux's /proc. The gather window closes
// a round once the legacy server is known to wait (bridge/gather.ts): a child none of whose threads
// runs has written everything it was about to write for now. Every thread is read, not only the
// main one: some servers write from another thread while the event loop waits for it (Python's
// anyio hands stdout writes to a worker thread), and a thread that wakes another makes it runnable
// before it sleeps itself, so a process with work left always shows a running thread. The main
// thread is read first: the usual answer while it still works, for a tenth of the cost.
// Each read is a synchronous file read on the event loop, and the child decides how many threads
// it has: a process with more threads than a bound is not read thread by thread, and a pass that
// takes too long stops; either way the answer is "unknown" and the gather falls back to timing.
import { closeSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/** A wrapper (`npx`, `sh -c`, `uv run`) starts the real server as a descendant; follow that far. */
const MAX_PROCESSES = 8;

/** The most threads of one process read one by one (a Node or Python server has a dozen or two). */
export const MAX_THREADS = 64;

/** The longest one pass may take before it stops, unknown (a loaded machine slows every read). */
export const PASS_BUDGET_MS = 5;

/** R: running or runnable; D: in uninterruptible sleep (it will run on as soon as the I/O ends). */
const RUNNING_STATES = new Set(['R', 'D']);

/** The state letter in a /proc/PID/stat line; the command name before it may hold spaces and ')'. */
export function statState(stat: string): string | undefined {
  const end = stat.lastIndexOf(')');
  if (end < 0) return undefined;
  const state = stat.charAt(end + 2);
  return state === '' ? undefined : state;
}

/** The thread count in a /proc/PID/stat line (its 20th field, `num_threads`). */
export function statThreads(stat: string): number | undefined {
  const end = stat.lastIndexOf(')');
  if (end < 0) return undefined;
  // Fields from the 3rd (the state) on, after the command name: num_threads is the 18th of them.
  const field = stat.slice(end + 2).split(' ', 18)[17];
  const n = Number(field);
  return field !== undefined && Number.isInteger(n) && n > 0 ? n : undefined;
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

/** How a pass reads a /proc file: its text, or undefined when it cannot be read (the thread or process is gone). */
export interface ProcFiles {
  read(path: string): string | undefined;
  /** A pass starts. */
  begin?(): void;
  /** The pass read the whole tree: what it did not read belongs to no process of the tree any more. */
  passed?(): void;
}

// One open, read and close: readFileSync would also fstat the file and read again to find its end.
function readOnce(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    return readAt(fd, path);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** The file's text, read from its start (a /proc file is made again by each read at offset 0). */
function readAt(fd: number, path: string): string {
  const n = readSync(fd, READ_BUFFER, 0, READ_BUFFER.length, 0);
  return n < READ_BUFFER.length ? READ_BUFFER.toString('latin1', 0, n) : readFileSync(path, 'latin1');
}

/** Each read opens and closes its file. */
export const READ_ONCE: ProcFiles = { read: readOnce };

/** The most files one child's reader keeps open; the rest are opened for each read. */
export const MAX_KEPT_OPEN = 32;

/**
 * The /proc files of one child's process tree, kept open between passes: a read is then one pread
 * at offset 0 instead of an open, a read and a close, the same text either way. A file whose thread
 * or process has ended fails its read (ESRCH: the descriptor stays bound to the task it was opened
 * for, never to a reused id) and is closed with the task's other files (all of its process's, for
 * a main thread). A pass that reads the whole tree closes the files it did not read (a descendant
 * that ended, a thread gone). close() closes them all; the owner calls it when the child's
 * transport ends.
 */
export class KeptProcFiles implements ProcFiles {
  private readonly open = new Map<string, number>();
  /** Files read in the current pass. */
  private readonly readSince = new Set<string>();

  begin(): void {
    this.readSince.clear();
  }

  read(path: string): string | undefined {
    this.readSince.add(path);
    let fd = this.open.get(path);
    if (fd === undefined) {
      if (this.open.size >= MAX_KEPT_OPEN) return readOnce(path);
      try {
        fd = openSync(path, 'r');
      } catch {
        return undefined;
      }
      this.open.set(path, fd);
    }
    let text: string | undefined;
    try {
      text = readAt(fd, path);
    } catch {
      text = undefined;
    }
    // A stat line is never empty: an ended task's may read so instead of failing.
    if (text === undefined || (text === '' && path.endsWith('/stat'))) {
      this.forgetTask(path);
      return undefined;
    }
    return text;
  }

  passed(): void {
    for (const [path, fd] of this.open) if (!this.readSince.has(path)) this.forget(path, fd);
  }

  get size(): number {
    return this.open.size;
  }

  close(): void {
    for (const [path, fd] of this.open) this.forget(path, fd);
    this.readSince.clear();
  }

  /** A task ended: its files go, and with its main thread, every file of its process. */
  private forgetTask(path: string): void {
    const task = /^\/proc\/(\d+)\/task\/(\d+)\//.exec(path);
    const prefix = task === null ? path : task[1] === task[2] ? `/proc/${task[1]}/` : task[0];
    for (const [kept, fd] of this.open) if (kept.startsWith(prefix)) this.forget(kept, fd);
  }

  private forget(path: string, fd: number): void {
    this.open.delete(path);
    try {
      closeSync(fd);
    } catch {
      // Closed already: nothing is held.
    }
  }
}

function threadIds(pid: number): string[] {
  try {
    return readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
}

function isRunning(files: ProcFiles, statPath: string): boolean | undefined {
  const stat = files.read(statPath);
  const state = stat === undefined ? undefined : statState(stat);
  return state === undefined ? undefined : RUNNING_STATES.has(state);
}

/**
 * True when a thread of `pid` or of one of its first descendants is running (`main`: their main
 * threads only); false when they all wait; undefined when this cannot be known (no /proc, the
 * process is gone, a process has more than MAX_THREADS threads, the pass took PASS_BUDGET_MS):
 * the caller then relies on timing alone. `now`: milliseconds, for the pass's budget; `files`: how
 * the /proc files are read (a child's transport keeps them open between passes: KeptProcFiles).
 */
export function processTreeRunning(
  pid: number,
  threads: 'all' | 'main' = 'all',
  now: () => number = () => performance.now(),
  files: ProcFiles = READ_ONCE,
): boolean | undefined {
  const deadline = now() + PASS_BUDGET_MS;
  files.begin?.();
  const queue = [pid];
  let known = false;
  /** A thread was left unread: "none runs" cannot be said. */
  let partial = false;
  for (let seen = 0; seen < queue.length && seen < MAX_PROCESSES; seen++) {
    if (now() > deadline) return undefined;
    const p = queue[seen]!;
    // The main thread's own line: /proc/PID/stat would sum every thread's times, a cost that grows with them.
    const stat = files.read(`/proc/${p}/task/${p}/stat`);
    const state = stat === undefined ? undefined : statState(stat);
    if (state === undefined) continue;
    known = true;
    if (RUNNING_STATES.has(state)) return true;
    if (threads === 'all') {
      const count = statThreads(stat!) ?? Number.POSITIVE_INFINITY;
      if (count > MAX_THREADS) partial = true;
      else if (count > 1) {
        const tids = threadIds(p);
        // Threads started since the stat line was read are not waited for.
        if (tids.length > MAX_THREADS) partial = true;
        for (const tid of tids.slice(0, MAX_THREADS)) {
          if (tid !== String(p) && isRunning(files, `/proc/${p}/task/${tid}/stat`) === true) return true;
          if (now() > deadline) return undefined;
        }
      }
    }
    const children = files.read(`/proc/${p}/task/${p}/children`);
    if (children) queue.push(...childPids(children.trim()));
  }
  files.passed?.();
  return known && !partial ? false : undefined;
}
