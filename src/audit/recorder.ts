// Turns one upstream's interaction events into audit records: it follows each interaction from
// start to end (timing rounds with the injected clock) and hands the finished record to a sink.
// It runs on the bridge's hot path, so it only copies shapes into memory; the sink writes later.
import type { InteractionObserver } from '../protocol/interaction-observer.js';
import type { JsonObject, Root } from '../protocol/json.js';
import type { Clock } from '../clock.js';
import { inputMethodOf } from '../protocol/input-requests.js';
import { questionOf, resultShapeOf } from './question.js';
import { describeAnswer, describeAsk, outcomeOf, targetOf, type AuditedRequest, type AuditRecord, type ReplayRunInfo, type SchemaShape } from './record.js';
import { resultNamesRoots } from './roots-named.js';
import { schemeOf, type ResourceName } from '../protocol/resource-names.js';

type Obj = Record<string, unknown>;

interface Open {
  startedAt: number;
  /** When the legacy server last started working (the call's start or the last retry). */
  workingSince: number;
  suspendedAt: number;
  method: string;
  /** For resources/read, set once the URI is named (`naming`). */
  target: string;
  undeclared?: true;
  /** A read's name being looked up; the URI itself is never held. */
  naming?: Promise<void>;
  named: boolean;
  mode: string;
  rounds: number;
  requests: AuditedRequest[];
  arguments?: unknown;
  replay?: ReplayRunInfo;
  /** The roots the client gave in the proxy's roots round before the call: held until the end, never written. */
  rootsRound?: readonly Root[];
}

export interface RecorderOptions {
  upstream: string;
  clock: Clock;
  /** Keep what was asked and answered (--audit-content). */
  content: boolean;
  /** Keep what the server authored when it asked (--audit-questions). */
  questions?: boolean;
  /**
   * What a resources/read is named by (upstream/resource-catalog.ts): its declared resource or
   * template. Absent, or when it fails: the URI's scheme only.
   */
  resourceName?: (uri: string) => Promise<ResourceName>;
  sink(record: AuditRecord): void;
}

/** Interactions whose end never came (should not happen) are forgotten beyond this many. */
const MAX_OPEN = 100_000;
/** Replayed calls whose next run never came (the client went away) are forgotten beyond this many. */
const MAX_REPLAY_ASKS = 10_000;

/** The bridge's InteractionObserver (protocol/interaction-observer.ts), writing the audit file. */
export class AuditRecorder implements InteractionObserver {
  private readonly open = new Map<string, Open>();
  /** Reads whose name is still being looked up, and records waiting for one. */
  private readonly pending = new Set<Promise<void>>();
  /**
   * What a replayed call's run asked, by call id and input key, until its next run starts: that
   * run's retry carries the answers, whose field names are kept only where this schema has them.
   */
  private readonly replayAsks = new Map<string, Map<string, SchemaShape | undefined>>();

  constructor(private readonly opts: RecorderOptions) {}

  onStart(e: {
    handle: string;
    method: string;
    params: JsonObject;
    mode: string;
    roots?: readonly Root[] | undefined;
    rootsRound?: true;
    replay?: { call: string; run: number; answers: ReadonlyMap<string, unknown> };
  }): void {
    if (this.open.size >= MAX_OPEN) this.open.delete(this.open.keys().next().value!);
    const now = this.opts.clock.now();
    const read = e.method === 'resources/read';
    const open: Open = {
      startedAt: now,
      workingSince: now,
      suspendedAt: now,
      method: e.method,
      target: read ? '' : targetOf(e.method, e.params),
      named: !read,
      mode: e.mode,
      rounds: 0,
      requests: [],
      ...(this.opts.content ? { arguments: e.params['arguments'] ?? e.params } : {}),
      ...(e.replay ? { replay: this.replayInfo(e.replay) } : {}),
      ...(e.rootsRound ? { rootsRound: e.roots ?? [] } : {}),
    };
    if (read) this.name(open, targetOf(e.method, e.params));
    this.open.set(e.handle, open);
  }

  /** Names a read by its declared resource or template, or its scheme; the URI is not kept. */
  private name(o: Open, uri: string): void {
    const scheme: ResourceName = { name: schemeOf(uri), undeclared: true };
    const named = this.opts.resourceName?.(uri) ?? Promise.resolve(scheme);
    o.naming = this.track(
      named
        .catch(() => scheme)
        .then((n) => {
          o.target = n.name;
          if (n.undeclared) o.undeclared = true;
          o.named = true;
        }),
    );
  }

  private track(p: Promise<void>): Promise<void> {
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
    return p;
  }

  /** Resolves once every ended call's record has reached the sink (reads wait for their names). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** A run's link to its call; the previous run's questions are answered here (that run ended at `let_go`). */
  private replayInfo(r: { call: string; run: number; answers: ReadonlyMap<string, unknown> }): ReplayRunInfo {
    const answered: ReplayRunInfo['answered'] = [];
    // The previous run asked on this instance, or another one (then no field names are kept).
    const asked = this.replayAsks.get(r.call);
    this.replayAsks.delete(r.call);
    for (const [key, answer] of r.answers) {
      const method = inputMethodOf(key) ?? 'unknown';
      answered.push({ round: r.run - 1, key, method, ...describeAnswer(method, answer, asked?.get(key)), ...(this.opts.content ? { answer } : {}) });
    }
    return { call: r.call, run: r.run, fromRecord: 0, mismatched: 0, answered };
  }

  onReplay(e: { handle: string; fromRecord: number; mismatched: number }): void {
    const o = this.open.get(e.handle);
    if (o?.replay) Object.assign(o.replay, { fromRecord: e.fromRecord, mismatched: e.mismatched });
  }

  onRound(e: { handle: string; round: number; asked: ReadonlyArray<{ key: string; method: string; params?: Obj }> }): void {
    const o = this.open.get(e.handle);
    if (!o) return;
    const now = this.opts.clock.now();
    o.rounds = e.round;
    o.suspendedAt = now;
    if (o.replay) this.rememberReplayAsks(o.replay.call, e.asked);
    for (const a of e.asked) {
      o.requests.push({
        round: e.round,
        key: a.key,
        method: a.method,
        ...describeAsk(a.method, a.params),
        action: 'unanswered',
        serverMs: now - o.workingSince,
        ...(this.opts.questions ? { question: questionOf(a.method, a.params) } : {}),
        ...(this.opts.content ? { asked: a.params ?? {} } : {}),
      });
    }
  }

  private rememberReplayAsks(call: string, asked: ReadonlyArray<{ key: string; method: string; params?: Obj }>): void {
    if (this.replayAsks.size >= MAX_REPLAY_ASKS && !this.replayAsks.has(call)) this.replayAsks.delete(this.replayAsks.keys().next().value!);
    const byKey = this.replayAsks.get(call) ?? new Map<string, SchemaShape | undefined>();
    for (const a of asked) byKey.set(a.key, describeAsk(a.method, a.params).schema);
    this.replayAsks.set(call, byKey);
  }

  onAnswers(e: { handle: string; round: number; answers: ReadonlyMap<string, unknown> }): void {
    const o = this.open.get(e.handle);
    if (!o) return;
    const now = this.opts.clock.now();
    for (const r of o.requests) {
      if (r.round !== e.round || !e.answers.has(r.key)) continue;
      const answer = e.answers.get(r.key);
      Object.assign(r, describeAnswer(r.method, answer, r.schema), { clientMs: now - o.suspendedAt }, this.opts.content ? { answer } : {});
    }
    o.workingSince = now;
  }

  onEnd(e: { handle: string; reason: string; why?: string; result?: JsonObject; error?: { code: number; message: string } }): void {
    const o = this.open.get(e.handle);
    if (!o) return;
    this.open.delete(e.handle);
    const now = this.opts.clock.now();
    const record = (): AuditRecord => ({
      ts: new Date(now).toISOString(),
      upstream: this.opts.upstream,
      method: o.method,
      target: o.target,
      ...(o.undeclared ? { undeclared: true as const } : {}),
      mode: o.mode,
      rounds: o.rounds,
      durationMs: now - o.startedAt,
      finalServerMs: now - o.workingSince,
      requests: o.requests,
      outcome: outcomeOf(e, this.opts.content),
      ...(this.opts.content && o.arguments !== undefined ? { arguments: o.arguments } : {}),
      ...(this.opts.questions && e.result ? { resultShape: resultShapeOf(o.method, e.result) } : {}),
      ...(o.rootsRound ? { rootsRound: true as const } : {}),
      ...(this.opts.questions && o.rootsRound && e.result ? { resultNamesRoots: resultNamesRoots(o.method, e.result, o.rootsRound) } : {}),
      ...(o.replay ? { replay: o.replay } : {}),
    });
    if (o.named) this.opts.sink(record());
    else this.track(o.naming!.then(() => this.opts.sink(record())));
  }
}
