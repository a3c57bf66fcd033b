// Legacy sessions, pooled by client-capability set and bounded by --max-sessions.
//
// Shared leases carry many calls on one session (up to `callsPerSession` each before another
// session starts; see lease-choice.ts); runner leases share too, one running at a time per session
// (interactive calls whose server requests come untied, see ask-learning.ts); exclusive leases hold
// a session alone. A lease that finds no room waits a bounded time, then fails: it never queues
// silently forever.
//
// Fairness: a call that waits for a person occupies pool capacity for as long as the person
// thinks. The waiting load (a waiting exclusive session counts one, a waiting shared call
// 1/callsPerSession) stays within `maxWaiting` (`markWaiting` says no beyond it), so abandoned
// interactions can never take the sessions every other request needs.
import type { LegacyCapabilities } from '../../protocol/capabilities.js';
import { ProxyError } from '../../protocol/errors.js';
import { sessionKey, type RootsBinding } from '../../protocol/roots.js';
import type { Cancel } from '../../clock.js';
import { DEFAULT_CALLS_PER_SESSION, type Lease, type LeaseMode, type PooledSession, type PoolOptions, type PoolStats } from './lease.js';
import { chooseLease } from './lease-choice.js';
import { EntryLease, mayWaitIn, newEntry, poolStats, type Entry, type LeaseHooks } from './pool-entry.js';

export { waitingCap, type Lease, type LeaseMode, type PooledSession, type PoolOptions, type PoolStats } from './lease.js';

/** A session being started for shared leases; `joined` leases are handed out when it is ready, one of them perhaps its runner. */
interface Starting<S extends PooledSession> {
  key: string;
  joined: number;
  runner: boolean;
  ready: Promise<Entry<S>>;
}

interface Waiter<S extends PooledSession> {
  caps: LegacyCapabilities;
  roots: RootsBinding;
  key: string;
  mode: LeaseMode;
  since: number;
  resolve(lease: Lease<S>): void;
  reject(err: Error): void;
  cancelTimer: Cancel;
  /** A runner's: looks again once it has waited long enough for a session to be started for it (see place). */
  cancelPatience?: Cancel;
}

export class SessionPool<S extends PooledSession> {
  private readonly entries = new Set<Entry<S>>();
  private readonly waiters: Waiter<S>[] = [];
  private readonly starting = new Set<Starting<S>>();
  private connecting = 0;
  /** Slots taken by sessions the pool does not own: legacy clients' own sessions (see reserveOutside). */
  private outside = 0;
  private closing = false;
  /** Sessions being closed; shutdown waits for them so no legacy child outlives the proxy. */
  private readonly closingSessions = new Set<Promise<void>>();
  /** Spare sessions being started, per capability key. */
  private readonly warming = new Map<string, number>();
  private readonly now: () => number;
  private readonly perSession: number;
  /** How long the latest session took to start and initialize (see place). */
  private startMs = 0;

  constructor(private readonly opts: PoolOptions<S>) {
    this.now = () => opts.clock.now();
    this.perSession = opts.callsPerSession ?? DEFAULT_CALLS_PER_SESSION;
  }

  /**
   * `waiting`: requests queued for a session; `onClient`: sessions with a call waiting for its
   * client; `saturated`: every session allowed is in use (held, or carrying shared calls), so a
   * request that needs a session of its own now has to queue.
   */
  stats(): PoolStats {
    return poolStats(this.entries, { connecting: this.connecting, passThrough: this.outside, waiting: this.waiters.length, ...this.limits() });
  }

  /**
   * A slot for a session the pool does not own (a legacy client's own session, relayed as it is),
   * counted against --max-sessions with the pool's: the longest-idle pooled session is closed to
   * make room, and without room (every session in use) undefined. The returned release gives the
   * slot back (once) and hands it to a queued request.
   */
  reserveOutside(): (() => void) | undefined {
    if (this.closing || !this.canOpen()) return undefined;
    this.makeRoom();
    this.outside++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.outside--;
      this.drain();
    };
  }

  /** Sessions counted against --max-sessions: the pool's, those starting, and the slots held outside it. */
  private used(): number {
    return this.entries.size + this.connecting + this.outside;
  }

  /**
   * Sessions with different `roots` (a client's, or the operator's when undefined) are never
   * shared, nor are sessions of different principals (`principal` undefined: a session any caller
   * may share). `prefer`: a session to take if the lease fits there now.
   */
  acquire(caps: LegacyCapabilities, mode: LeaseMode, roots?: RootsBinding, prefer?: S, principal?: string): Promise<Lease<S>> {
    if (this.closing) return Promise.reject(new ProxyError('upstream_unavailable', 'shutting_down', 'the proxy is shutting down'));
    const key = sessionKey(caps, roots, principal);
    const placed = this.place(caps, roots, key, mode, prefer);
    if (placed) return placed;
    return new Promise<Lease<S>>((resolve, reject) => {
      const waiter: Waiter<S> = {
        caps,
        roots,
        key,
        mode,
        since: this.now(),
        resolve,
        reject,
        cancelTimer: this.opts.clock.after(this.opts.waitMs, () => {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          waiter.cancelPatience?.();
          const why =
            mode === 'runner'
              ? `no legacy session could run this call within ${this.opts.waitMs / 1000}s: on every session allowed by --max-sessions (${this.opts.maxSessions}) another call whose legacy requests cannot be told apart is running`
              : `no legacy session became free within ${this.opts.waitMs / 1000}s (all ${this.opts.maxSessions} allowed by --max-sessions are in use)`;
          reject(new ProxyError('upstream_unavailable', 'sessions_busy', why));
        }),
      };
      if (mode === 'runner') waiter.cancelPatience = this.opts.clock.after(this.patienceMs(), () => this.drain());
      this.waiters.push(waiter);
    });
  }

  /** Whether one more call of `mode` may wait for its client (or a task hold its session) now, within --waiting-share. */
  mayWait(mode: LeaseMode): boolean {
    return mayWaitIn(this.entries, mode, this.perSession, this.opts.maxWaiting);
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
      w.cancelPatience?.();
      w.reject(new ProxyError('upstream_unavailable', 'shutting_down', 'the proxy is shutting down'));
    }
    for (const e of [...this.entries]) this.remove(e, 'proxy shutting down');
    await Promise.all(this.closingSessions);
  }

  /**
   * A lease (now or once a session has started), or undefined when the request must queue.
   * `waitedMs`: how long the request has queued. A runner that finds every runner slot busy gets
   * a new session only once it has waited twice as long as the latest session took to start: a
   * slot is busy only until its call parks, so a short queue drains sooner than a legacy process
   * starts (and a started one stays until --idle-session-ttl), while a queue that outlasts two
   * starts is worth a session more.
   */
  private place(caps: LegacyCapabilities, roots: RootsBinding, key: string, mode: LeaseMode, prefer?: S, waitedMs = 0): Promise<Lease<S>> | undefined {
    const open = [...this.entries].filter((e) => e.key === key && !e.session.closed);
    const starting = [...this.starting].filter((s) => s.key === key);
    const seen = open.map((e) => ({ held: e.held, shared: e.shared, runner: e.runner, resuming: e.resuming.length }));
    const preferred = prefer === undefined ? -1 : open.findIndex((e) => e.session === prefer);
    const patient = mode !== 'runner' || open.length === 0 || waitedMs >= this.patienceMs();
    const choice = chooseLease(mode, seen, starting, patient && this.canOpen(), this.perSession, preferred);
    switch (choice.kind) {
      case 'take':
        return Promise.resolve(this.lease(open[choice.index]!, mode));
      case 'join':
        return this.join(starting[choice.index]!, mode);
      case 'open':
        this.makeRoom();
        return mode === 'exclusive' ? this.connectFor(caps, roots, key).then((e) => this.lease(e, 'exclusive')) : this.startShared(caps, roots, key, mode);
      case 'queue':
        return undefined;
    }
  }

  /** How long a queued runner waits before a session is started for it (see place). */
  private patienceMs(): number {
    return 2 * this.startMs;
  }

  /** True when a new session may be started now (evicting the longest-idle one if needed). */
  private canOpen(): boolean {
    if (this.used() < this.opts.maxSessions) return true;
    for (const e of this.entries) if (!e.held && e.shared === 0) return true;
    return false;
  }

  private makeRoom(): void {
    if (this.used() < this.opts.maxSessions) return;
    let idlest: Entry<S> | undefined;
    for (const e of this.entries) {
      if (!e.held && e.shared === 0 && (!idlest || e.idleSince < idlest.idleSince)) idlest = e;
    }
    if (idlest) this.remove(idlest, 'evicted for a session with other capabilities');
  }

  /** Starts a session for shared leases; leases placed meanwhile join it instead of starting more. */
  private startShared(caps: LegacyCapabilities, roots: RootsBinding, key: string, mode: LeaseMode): Promise<Lease<S>> {
    const start: Starting<S> = { key, joined: 0, runner: false, ready: undefined as never };
    start.ready = this.connectFor(caps, roots, key).then(
      (entry) => {
        this.starting.delete(start);
        // Reserved at once: nothing may lease it exclusively before the joined leases are handed out.
        entry.shared += start.joined;
        return entry;
      },
      (err: Error) => {
        this.starting.delete(start);
        throw err;
      },
    );
    this.starting.add(start);
    return this.join(start, mode);
  }

  /** `mode`: shared or runner (at most one runner joins a starting session). */
  private async join(start: Starting<S>, mode: LeaseMode): Promise<Lease<S>> {
    start.joined++;
    if (mode === 'runner') start.runner = true;
    const entry = await start.ready;
    if (entry.session.closed || !this.entries.has(entry)) {
      entry.shared--;
      throw new ProxyError('upstream_unavailable', 'upstream_unreachable', `the legacy session closed right after opening: ${entry.session.closeReason}`);
    }
    return this.lease(entry, mode, true);
  }

  private async connectFor(caps: LegacyCapabilities, roots: RootsBinding, key: string): Promise<Entry<S>> {
    this.connecting++;
    const started = this.now();
    let session: S;
    try {
      session = await this.opts.connect(caps, roots);
      this.startMs = this.now() - started;
    } catch (err) {
      throw new ProxyError('upstream_unavailable', 'upstream_unreachable', `could not open a legacy session: ${(err as Error).message}`);
    } finally {
      this.connecting--;
    }
    if (session.closed) {
      this.drain();
      throw new ProxyError('upstream_unavailable', 'upstream_unreachable', `the legacy session closed right after opening: ${session.closeReason}`);
    }
    const entry = newEntry(session, caps, roots, key, this.now());
    this.entries.add(entry);
    if (this.closing) {
      this.remove(entry, 'proxy shutting down');
      throw new ProxyError('upstream_unavailable', 'shutting_down', 'the proxy is shutting down');
    }
    return entry;
  }

  /** Starts idle sessions for `key` in the background until `spareSessions` are ready or starting. */
  private keepSpares(caps: LegacyCapabilities, key: string): void {
    let ready = this.warming.get(key) ?? 0;
    for (const e of this.entries) if (e.key === key && !e.held && e.shared === 0 && !e.session.closed) ready++;
    for (; ready < this.opts.spareSessions && !this.closing; ready++) {
      if (this.used() >= this.opts.maxSessions) return;
      this.connecting++;
      this.warming.set(key, (this.warming.get(key) ?? 0) + 1);
      this.opts
        .connect(caps, undefined)
        .then(
          (session) => {
            if (session.closed) return;
            const entry = newEntry(session, caps, undefined, key, this.now());
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

  /** `reserved`: a shared lease already counted on the entry (see startShared). */
  private lease(entry: Entry<S>, mode: LeaseMode, reserved = false): Lease<S> {
    return new EntryLease(entry, mode, reserved, this.leaseHooks);
  }

  /** What every lease of this pool asks of it (one object, so a held lease costs no closures). */
  private readonly leaseHooks: LeaseHooks<S> = {
    now: () => this.now(),
    drain: () => this.drain(),
    remove: (entry, reason) => this.remove(entry, reason),
    mayWait: (mode) => mayWaitIn(this.entries, mode, this.perSession, this.opts.maxWaiting),
    // Spares serve calls that hold a session for a person's think time; a client's roots get
    // none: only that client's next call could use one.
    waits: (entry, mode) => {
      if (mode === 'exclusive' && entry.roots === undefined) this.keepSpares(entry.caps, entry.key);
    },
    slotWaited: (ms) => this.opts.slotWaited?.(ms / 1000),
  };

  private limits() {
    return { callsPerSession: this.perSession, maxSessions: this.opts.maxSessions, maxWaiting: this.opts.maxWaiting };
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
      const placed = this.place(w.caps, w.roots, w.key, w.mode, undefined, this.now() - w.since);
      if (placed) {
        this.waiters.splice(i, 1);
        w.cancelTimer();
        w.cancelPatience?.();
        placed.then(w.resolve, w.reject);
        continue;
      }
      i++;
    }
  }
}
