// Legacy sessions, pooled by client-capability set and bounded by --max-sessions.
//
// Nothing on the legacy wire ties a server-initiated request to the call that caused it, so an
// interactive call (tools/call, prompts/get, resources/read) takes its session exclusively; other
// methods share any session of the right capability set that no interactive call holds. When the
// pool is full a request waits a bounded time, then fails: it never queues silently forever.
//
// Fairness: a call that waits for a person holds its session for as long as the person thinks. At
// most `maxWaiting` sessions may be held that way (`markWaiting` says no beyond it), so abandoned
// interactions can never take the sessions every other request needs.
import type { LegacyCapabilities } from '../protocol/capabilities.js';
import { ProxyError } from '../protocol/errors.js';
import { sessionKey, type RootsBinding } from '../protocol/roots.js';
import type { Cancel } from '../runtime/clock.js';
import type { Lease, LeaseMode, PooledSession, PoolOptions, PoolStats } from './lease.js';

export { waitingCap, type Lease, type LeaseMode, type PooledSession, type PoolOptions, type PoolStats } from './lease.js';

interface Entry<S extends PooledSession> {
  session: S;
  caps: LegacyCapabilities;
  roots: RootsBinding;
  key: string;
  held: boolean;
  /** Held by an interaction that waits for a client. */
  waiting: boolean;
  shared: number;
  idleSince: number;
}

interface Waiter<S extends PooledSession> {
  caps: LegacyCapabilities;
  roots: RootsBinding;
  key: string;
  mode: LeaseMode;
  resolve(lease: Lease<S>): void;
  reject(err: Error): void;
  cancelTimer: Cancel;
}

export class SessionPool<S extends PooledSession> {
  private readonly entries = new Set<Entry<S>>();
  private readonly waiters: Waiter<S>[] = [];
  private connecting = 0;
  private closing = false;
  /** Sessions being closed; shutdown waits for them so no legacy child outlives the proxy. */
  private readonly closingSessions = new Set<Promise<void>>();
  /** Spare sessions being started, per capability key. */
  private readonly warming = new Map<string, number>();
  private readonly now: () => number;

  constructor(private readonly opts: PoolOptions<S>) {
    this.now = () => opts.clock.now();
  }

  /**
   * `waiting`: requests queued for a session; `onClient`: sessions held by interactions waiting for
   * a client; `saturated`: every session allowed is held exclusively, so a request that needs one now
   * has to queue.
   */
  stats(): PoolStats {
    let held = 0;
    let shared = 0;
    let onClient = 0;
    for (const e of this.entries) {
      if (e.held) held++;
      else if (e.shared > 0) shared++;
      if (e.waiting) onClient++;
    }
    const saturated = held + this.connecting >= this.opts.maxSessions;
    return {
      sessions: this.entries.size,
      held,
      shared,
      connecting: this.connecting,
      waiting: this.waiters.length,
      onClient,
      maxSessions: this.opts.maxSessions,
      maxWaiting: this.opts.maxWaiting,
      saturated,
    };
  }

  /** Sessions with different `roots` (a client's, or the operator's when undefined) are never shared. */
  acquire(caps: LegacyCapabilities, mode: LeaseMode, roots?: RootsBinding): Promise<Lease<S>> {
    if (this.closing) return Promise.reject(new ProxyError('upstream_unavailable', 'the proxy is shutting down'));
    const key = sessionKey(caps, roots);
    const lease = this.tryTake(key, mode);
    if (lease) return Promise.resolve(lease);
    if (this.makeRoom()) return this.connectFor(caps, roots, key, mode);
    return new Promise<Lease<S>>((resolve, reject) => {
      const waiter: Waiter<S> = {
        caps,
        roots,
        key,
        mode,
        resolve,
        reject,
        cancelTimer: this.opts.clock.after(this.opts.waitMs, () => {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          reject(
            new ProxyError(
              'upstream_unavailable',
              `no legacy session became free within ${this.opts.waitMs / 1000}s (all ${this.opts.maxSessions} allowed by --max-sessions are in use)`,
            ),
          );
        }),
      };
      this.waiters.push(waiter);
    });
  }

  /** Closes sessions idle for longer than `idleTtlMs` (default: the pool's idle TTL). */
  sweepIdle(idleTtlMs = this.opts.idleTtlMs): void {
    const cutoff = this.now() - idleTtlMs;
    for (const e of this.entries) {
      if (!e.held && e.shared === 0 && e.idleSince <= cutoff) this.remove(e, 'idle');
    }
  }

  /** Called by the session's close hook: a dead session leaves the pool and frees its slot. */
  forget(session: S): void {
    for (const e of this.entries) if (e.session === session) this.entries.delete(e);
    this.drain();
  }

  async close(): Promise<void> {
    this.closing = true;
    for (const w of this.waiters.splice(0)) {
      w.cancelTimer();
      w.reject(new ProxyError('upstream_unavailable', 'the proxy is shutting down'));
    }
    for (const e of [...this.entries]) this.remove(e, 'proxy shutting down');
    await Promise.all(this.closingSessions);
  }

  private tryTake(key: string, mode: LeaseMode): Lease<S> | undefined {
    let best: Entry<S> | undefined;
    for (const e of this.entries) {
      if (e.key !== key || e.held || e.session.closed) continue;
      if (mode === 'exclusive' && e.shared > 0) continue;
      if (!best || e.shared < best.shared) best = e;
    }
    return best ? this.lease(best, mode) : undefined;
  }

  /** True when a new session may be started now, evicting the longest-idle one if needed. */
  private makeRoom(): boolean {
    if (this.entries.size + this.connecting < this.opts.maxSessions) return true;
    let idlest: Entry<S> | undefined;
    for (const e of this.entries) {
      if (!e.held && e.shared === 0 && (!idlest || e.idleSince < idlest.idleSince)) idlest = e;
    }
    if (!idlest) return false;
    this.remove(idlest, 'evicted for a session with other capabilities');
    return true;
  }

  private async connectFor(caps: LegacyCapabilities, roots: RootsBinding, key: string, mode: LeaseMode): Promise<Lease<S>> {
    this.connecting++;
    let session: S;
    try {
      session = await this.opts.connect(caps, roots);
    } catch (err) {
      throw new ProxyError('upstream_unavailable', `could not open a legacy session: ${(err as Error).message}`);
    } finally {
      this.connecting--;
    }
    if (session.closed) {
      this.drain();
      throw new ProxyError('upstream_unavailable', `the legacy session closed right after opening: ${session.closeReason}`);
    }
    const entry: Entry<S> = { session, caps, roots, key, held: false, waiting: false, shared: 0, idleSince: this.now() };
    this.entries.add(entry);
    if (this.closing) {
      this.remove(entry, 'proxy shutting down');
      throw new ProxyError('upstream_unavailable', 'the proxy is shutting down');
    }
    return this.lease(entry, mode);
  }

  /** Starts idle sessions for `key` in the background until `spareSessions` are ready or starting. */
  private keepSpares(caps: LegacyCapabilities, key: string): void {
    let ready = this.warming.get(key) ?? 0;
    for (const e of this.entries) if (e.key === key && !e.held && e.shared === 0 && !e.session.closed) ready++;
    for (; ready < this.opts.spareSessions && !this.closing; ready++) {
      if (this.entries.size + this.connecting >= this.opts.maxSessions) return;
      this.connecting++;
      this.warming.set(key, (this.warming.get(key) ?? 0) + 1);
      this.opts
        .connect(caps, undefined)
        .then(
          (session) => {
            if (session.closed) return;
            const entry: Entry<S> = { session, caps, roots: undefined, key, held: false, waiting: false, shared: 0, idleSince: this.now() };
            this.entries.add(entry);
            if (this.closing) this.remove(entry, 'proxy shutting down');
          },
          (err: Error) => this.opts.log.warn('could not start a spare legacy session', { error: err.message }),
        )
        .finally(() => {
          this.connecting--;
          this.warming.set(key, (this.warming.get(key) ?? 1) - 1);
          this.drain();
        });
    }
  }

  private lease(entry: Entry<S>, mode: LeaseMode): Lease<S> {
    if (mode === 'exclusive') {
      entry.held = true;
      // A client's roots get no spares: only that client's next call could use one.
      if (entry.roots === undefined) this.keepSpares(entry.caps, entry.key);
    } else entry.shared++;
    let done = false;
    const finish = () => {
      if (done) return false;
      done = true;
      if (mode === 'exclusive') {
        entry.held = false;
        entry.waiting = false;
      } else entry.shared--;
      entry.idleSince = this.now();
      return true;
    };
    return {
      session: entry.session,
      release: () => {
        if (finish()) this.drain();
      },
      discard: (reason) => {
        if (finish()) this.remove(entry, reason);
      },
      markWaiting: () => {
        if (done || mode !== 'exclusive') return true;
        if (entry.waiting) return true;
        if (this.stats().onClient >= this.opts.maxWaiting) return false;
        entry.waiting = true;
        return true;
      },
      markActive: () => {
        entry.waiting = false;
      },
    };
  }

  private remove(entry: Entry<S>, reason: string): void {
    this.entries.delete(entry);
    this.opts.log.debug('closing legacy session', { session: entry.session.id, reason });
    const closing = entry.session.close(reason).catch(() => {});
    this.closingSessions.add(closing);
    void closing.finally(() => this.closingSessions.delete(closing));
    this.drain();
  }

  /** Hands freed capacity to waiters, oldest first. */
  private drain(): void {
    for (let i = 0; i < this.waiters.length; ) {
      const w = this.waiters[i]!;
      const lease = this.tryTake(w.key, w.mode);
      if (lease) {
        this.waiters.splice(i, 1);
        w.cancelTimer();
        w.resolve(lease);
        continue;
      }
      if (this.makeRoom()) {
        this.waiters.splice(i, 1);
        w.cancelTimer();
        this.connectFor(w.caps, w.roots, w.key, w.mode).then(w.resolve, w.reject);
        continue;
      }
      i++;
    }
  }
}
