// Shadow comparison for every configured upstream that names a candidate. It watches the primary
// (the bridge's interaction events; the front's forwarded list and read requests), and after the
// primary has answered runs the same request against the candidate, aside: sampled, at most
// `maxConcurrent` at once, each bounded by `timeoutMs`. The client's answer never waits for it.
// Per process: nothing is shared between proxy instances.
import type { LiveShadowDifference } from '../audit/live.js';
import { auditedDifference, type ShadowRecord } from '../audit/shadow-record.js';
import { parseIgnorePath, type PathStep, type ShadowConfig } from '../config/shadow.js';
import type { ProxyConfig } from '../config/types.js';
import type { JsonObject } from '../protocol/json.js';
import { schemeOf } from '../protocol/resource-names.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../telemetry/logger.js';
import type { ProxyMetrics } from '../telemetry/metrics.js';
import { headerSourceFor, type TokenCache } from '../upstream/client-credentials.js';
import { CandidateClient } from './candidate.js';
import type { SideOutcome } from './compare.js';
import { eligibility } from './eligible.js';
import { compareWithCandidate, primaryRoundsOf, type Comparison, type ShadowRequest } from './run.js';
import { trackInteractions, type InteractionEvents } from './tracker.js';

export type ShadowOutcome = 'match' | 'differ' | 'candidate_error' | 'skipped';

/** What the live view shows of one comparison that did not match: paths and kinds, no values. */
export type ShadowNote = LiveShadowDifference;

/** The front's forwarded requests (lists, reads), as the shadow hears of them. */
export interface ForwardEvents {
  onForwarded(e: { method: string; params: JsonObject | undefined; capabilities: JsonObject; result?: JsonObject; error?: { code: number } }): void;
}

export interface ShadowDeps {
  log: Logger;
  clock: Clock;
  metrics?: ProxyMetrics | undefined;
  /** Where records of differences go (the audit file), and whether they keep values. */
  sink?: ((record: ShadowRecord) => void) | undefined;
  content: boolean;
  /** The live view. */
  onNote?: ((note: ShadowNote) => void) | undefined;
  /** Sampling; Math.random unless a test fixes it. */
  random?: () => number;
  /** The proxy instance's upstream credentials (a candidate may need the proxy's own token). */
  tokens: TokenCache;
  /** The declared resource or template a read of `uri` on `upstream` is named by (undefined: none; then its scheme), as the audit names reads. */
  nameRead?: (upstream: string, uri: string) => string | undefined;
}

interface Plan {
  shadow: ShadowConfig;
  candidate: CandidateClient;
  ignore: PathStep[][];
}

export class ShadowComparisons {
  private plans = new Map<string, Plan>();
  private running = 0;
  private readonly stopping = new AbortController();

  constructor(private readonly deps: ShadowDeps) {}

  /** Takes the shadows of `config` (at start and on every reload). */
  apply(config: ProxyConfig): void {
    const plans = new Map<string, Plan>();
    for (const u of config.upstreams) {
      if (!u.shadow) continue;
      const target = config.upstreams.find((c) => c.name === u.shadow!.upstream)?.target;
      // The configuration checked this; a reload that broke it was rejected before.
      if (target?.kind !== 'http') continue;
      plans.set(u.name, {
        shadow: u.shadow,
        candidate: new CandidateClient(target.url, headerSourceFor(target, this.deps.tokens)),
        ignore: u.shadow.ignore.map(parseIgnorePath),
      });
    }
    this.plans = plans;
  }

  /** The observer to give the bridge of `upstream`; it reads the current plan, so it stays right across reloads. */
  observerFor(upstream: string): InteractionEvents {
    return trackInteractions({
      wants: (method, params) => {
        const plan = this.plans.get(upstream);
        if (!plan) return undefined;
        const e = eligibility(plan.shadow, method, params);
        if (e.kind === 'skip') this.count(upstream, method, 'skipped');
        return e.kind === 'yes' ? e.params : undefined;
      },
      ended: (req, rounds) => this.launch(upstream, req, rounds),
      skipped: (method) => this.count(upstream, method, 'skipped'),
    });
  }

  /** The front's hook for forwarded requests of `upstream`. */
  forwardsOf(upstream: string): ForwardEvents {
    return {
      onForwarded: (e) => {
        const plan = this.plans.get(upstream);
        if (!plan) return;
        const el = eligibility(plan.shadow, e.method, e.params);
        if (el.kind === 'skip') this.count(upstream, e.method, 'skipped');
        if (el.kind !== 'yes') return;
        const primary: SideOutcome = e.error ? { kind: 'error', code: e.error.code } : { kind: 'result', result: e.result ?? {} };
        this.launch(upstream, { method: e.method, params: el.params, capabilities: e.capabilities, exchanges: [], primary }, 0);
      },
    };
  }

  /** Stops the comparisons still running (they count as candidate_error). */
  close(): void {
    this.stopping.abort();
  }

  private launch(upstream: string, req: ShadowRequest, primaryRounds: number): void {
    const plan = this.plans.get(upstream);
    if (!plan || this.stopping.signal.aborted) return;
    if ((this.deps.random ?? Math.random)() >= plan.shadow.sample) return this.count(upstream, req.method, 'skipped');
    if (this.running >= plan.shadow.maxConcurrent) {
      this.deps.log.debug('shadow comparison skipped: too many running', { upstream, method: req.method, running: this.running });
      return this.count(upstream, req.method, 'skipped');
    }
    this.running++;
    const timeout = new AbortController();
    const cancel = this.deps.clock.after(plan.shadow.timeoutMs, () => timeout.abort());
    const signal = AbortSignal.any([timeout.signal, this.stopping.signal]);
    const startedAt = this.deps.clock.now();
    // After this turn: the primary's answer goes out first, whatever the candidate does.
    this.deps.clock.after(0, () => {
      void compareWithCandidate(req, plan.candidate, plan.ignore, signal)
        .then((c) => this.settle(upstream, plan, req, primaryRounds, c, this.deps.clock.now() - startedAt))
        .catch((err: Error) => this.deps.log.error('shadow comparison failed', { upstream, error: err.stack ?? String(err) }))
        .finally(() => {
          cancel();
          this.running--;
        });
    });
  }

  private settle(upstream: string, plan: Plan, req: ShadowRequest, primaryRounds: number, c: Comparison, ms: number): void {
    this.count(upstream, req.method, c.outcome);
    // A read is named as the audit names it: never by the URI read, which may hold what the user typed.
    const uri = req.method === 'resources/read' ? String(req.params['uri'] ?? '') : undefined;
    const target = uri === undefined ? String(req.params['name'] ?? '') : (this.deps.nameRead?.(upstream, uri) ?? schemeOf(uri));
    const where = { upstream, candidate: plan.shadow.upstream, method: req.method, target };
    if (c.outcome === 'match') {
      this.deps.log.debug('shadow comparison matched', where);
      return;
    }
    const failed = c.outcome === 'candidate_error';
    if (failed) this.deps.log.warn('shadow candidate failed', { ...where, error: c.error, ms });
    else this.deps.log.info('shadow difference', { ...where, differences: c.differences.map((d) => `${d.path} ${d.kind}`) });
    this.deps.sink?.({
      kind: 'shadow',
      ts: new Date(this.deps.clock.now()).toISOString(),
      ...where,
      outcome: c.outcome as 'differ' | 'candidate_error',
      primaryRounds: primaryRoundsOf(primaryRounds, c),
      candidateRounds: c.rounds,
      candidateMs: ms,
      differences: c.differences.map((d) => auditedDifference(d, this.deps.content)),
      ...(c.truncated > 0 ? { truncated: c.truncated } : {}),
      ...(c.error === undefined ? {} : { error: c.error }),
      ...(c.rootsRound === undefined ? {} : { rootsRound: c.rootsRound }),
    });
    this.deps.onNote?.({
      at: this.deps.clock.now(),
      ...where,
      outcome: c.outcome as 'differ' | 'candidate_error',
      detail: failed ? (c.error ?? 'failed') : c.differences.map((d) => `${d.path} ${d.kind}${d.question ? ` (${d.question.method})` : ''}`).join('; '),
    });
  }

  private count(upstream: string, method: string, outcome: ShadowOutcome): void {
    this.deps.metrics?.shadowComparison(upstream, method, outcome);
  }
}
