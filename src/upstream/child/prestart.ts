// The first child of each stdio legacy upstream, started as soon as the configuration is known,
// before the rest of the proxy has loaded: a legacy server takes about as long to start as the
// proxy takes to load, so the two overlap instead of adding up. The control session's transport
// takes the child (`take`); one nobody took is ended (`end`).
import type { ChildProcess } from 'node:child_process';
import { PassThrough, type Readable } from 'node:stream';
import { type Children, type ChildTarget, signalChild } from './child-process.js';

export interface Prestarted {
  child: ChildProcess;
  /** Resolves once the child runs, rejects if it could not be started. */
  spawned: Promise<void>;
  /**
   * The child's stderr, read from the start: Node discards what nobody reads from a child that
   * exits, and the last lines of one that dies at start are why it died.
   */
  stderr: Readable;
  /** Set when the child ended (and its pipes closed) before a transport took it. */
  closed?: { code: number | null; signal: NodeJS.Signals | null };
}

function keyOf(target: ChildTarget): string {
  return JSON.stringify([target.command, target.args, target.cwd ?? null, target.env ?? null, target.user ?? null]);
}

/** The children one proxy instance started before it loaded, by target. */
export class Prestarts {
  private readonly waiting = new Map<string, Prestarted>();

  constructor(private readonly children: Children) {}

  /** Starts the child for `target` (once: a second call returns the first child while it waits). */
  start(target: ChildTarget): Prestarted {
    const key = keyOf(target);
    const known = this.waiting.get(key);
    if (known) return known;
    const child = this.children.spawn(target, ['pipe', 'pipe', 'pipe']);
    // Listened to at once: an 'error' nobody listens to would end the proxy before the transport attaches.
    const spawned = new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', reject);
    });
    spawned.catch(() => {});
    // Until the transport reads it, stdout stays paused and buffers what the child writes; stderr
    // goes through a stream of ours, which keeps it even once the child has exited.
    const stderr = new PassThrough();
    child.stderr!.pipe(stderr);
    const early: Prestarted = { child, spawned, stderr };
    child.once('close', (code, signal) => (early.closed = { code, signal }));
    this.waiting.set(key, early);
    return early;
  }

  /** The child prestarted for `target`, once; undefined when there is none. */
  take(target: ChildTarget): Prestarted | undefined {
    const key = keyOf(target);
    const p = this.waiting.get(key);
    this.waiting.delete(key);
    return p;
  }

  /** Ends the children nobody took (their upstream did not open a session after all). */
  end(): void {
    for (const { child } of this.waiting.values()) {
      child.stdin?.end();
      signalChild(child, 'SIGKILL');
    }
    this.waiting.clear();
  }
}
