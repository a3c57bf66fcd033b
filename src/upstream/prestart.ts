// The first child of each stdio legacy upstream, started as soon as the configuration is known,
// before the rest of the proxy has loaded: a legacy server takes about as long to start as the
// proxy takes to load, so the two overlap instead of adding up. The control session's transport
// takes the child (`takePrestarted`); one nobody took is ended (`endPrestarted`).
import type { ChildProcess } from 'node:child_process';
import { type ChildTarget, signalChild, spawnChild } from './child-process.js';

export interface Prestarted {
  child: ChildProcess;
  /** Resolves once the child runs, rejects if it could not be started. */
  spawned: Promise<void>;
  /** Set when the child ended (and its pipes closed) before a transport took it. */
  closed?: { code: number | null; signal: NodeJS.Signals | null };
}

const waiting = new Map<string, Prestarted>();

function keyOf(target: ChildTarget): string {
  return JSON.stringify([target.command, target.args, target.cwd ?? null, target.env ?? null]);
}

/** Starts the child for `target` (once: a second call returns the first child while it waits). */
export function prestartChild(target: ChildTarget): Prestarted {
  const key = keyOf(target);
  const known = waiting.get(key);
  if (known) return known;
  const child = spawnChild(target, ['pipe', 'pipe', 'pipe']);
  // Listened to at once: an 'error' nobody listens to would end the proxy before the transport attaches.
  const spawned = new Promise<void>((resolve, reject) => {
    child.once('spawn', () => resolve());
    child.once('error', reject);
  });
  spawned.catch(() => {});
  // Until the transport reads them, stdout and stderr stay paused and buffer what the child writes.
  const early: Prestarted = { child, spawned };
  child.once('close', (code, signal) => (early.closed = { code, signal }));
  waiting.set(key, early);
  return early;
}

/** The child prestarted for `target`, once; undefined when there is none. */
export function takePrestarted(target: ChildTarget): Prestarted | undefined {
  const key = keyOf(target);
  const p = waiting.get(key);
  waiting.delete(key);
  return p;
}

/** Ends the children nobody took (their upstream did not open a session after all). */
export function endPrestarted(): void {
  for (const { child } of waiting.values()) {
    child.stdin?.end();
    signalChild(child, 'SIGKILL');
  }
  waiting.clear();
}
