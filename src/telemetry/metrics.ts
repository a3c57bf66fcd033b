// The Prometheus metrics of the proxy (prom-client), on a registry of their own. The names and
// labels are documented in docs/operations.md (Metrics); label values come from labels.ts or the
// configuration (upstream names), never from a request. Gauges are read from their owners when
// scraped, so they cannot drift from what the pool and the bridge hold.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { methodLabel, type InputLabel, type Outcome, type ShadowOutcomeLabel } from './labels.js';
import { connectionsTo, type Endpoint } from './open-sockets.js';

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];
const ROUND_BUCKETS = [0, 1, 2, 3, 5, 8, 13];
const WAIT_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30];

/** Interactions of one upstream by what they wait for: the client's retry, or the legacy server. */
export interface InteractionCounts {
  suspended: number;
  running: number;
}

/** Pooled legacy sessions of one upstream by state. */
export interface SessionCounts {
  idle: number;
  exclusive: number;
  shared: number;
  connecting: number;
}

/** What one upstream's assembly lets the gauges read. */
export interface UpstreamGaugeSource {
  interactions?: () => InteractionCounts;
  sessions: () => SessionCounts;
  /** Where a network upstream is reached (none for stdio): its connections are counted. */
  endpoint?: Endpoint;
}

export class ProxyMetrics {
  readonly registry = new Registry();
  readonly requests: Counter<'upstream' | 'method' | 'outcome'>;
  readonly requestDuration: Histogram<'upstream' | 'method'>;
  readonly inputRequired: Counter<'upstream' | 'method' | 'input'>;
  readonly interactionRounds: Histogram;
  readonly interactionsEnded: Counter<'upstream' | 'reason'>;
  readonly stateRejections: Counter<'reason'>;
  readonly sessionWait: Histogram;
  readonly runnerSlotWait: Histogram<'upstream'>;
  readonly unattributedRequests: Counter<'upstream' | 'method'>;
  readonly notificationsDropped: Counter<'upstream' | 'method' | 'reason'>;
  readonly upstreamRequestDuration: Histogram<'upstream' | 'method'>;
  readonly shadowComparisons: Counter<'upstream' | 'method' | 'outcome'>;
  readonly tasksCreated: Counter<'upstream' | 'kind'>;
  readonly tasksEnded: Counter<'upstream' | 'kind' | 'status'>;
  readonly tasksDropped: Counter<'upstream' | 'kind' | 'reason'>;
  private readonly sources = new Map<UpstreamGaugeSource, string>();

  constructor(opts: { defaultMetrics: boolean } = { defaultMetrics: true }) {
    const registers = [this.registry];
    if (opts.defaultMetrics) collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'mrtr_requests_total',
      help: 'Front requests by upstream, JSON-RPC method and outcome (complete, input_required, error)',
      labelNames: ['upstream', 'method', 'outcome'],
      registers,
    });
    this.requestDuration = new Histogram({
      name: 'mrtr_request_duration_seconds',
      help: 'Front request duration until the response ended',
      labelNames: ['upstream', 'method'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.inputRequired = new Counter({
      name: 'mrtr_input_required_total',
      help: 'Legacy server requests sent to the client as inputRequests, by kind (elicitation, sampling, roots)',
      labelNames: ['upstream', 'method', 'input'],
      registers,
    });
    const sources = this.sources;
    new Gauge({
      name: 'mrtr_interactions_waiting',
      help: "Interactive calls in progress: mode suspended waits for the client's retry, running for the legacy server",
      labelNames: ['upstream', 'mode'],
      registers,
      collect() {
        this.reset();
        for (const [source, upstream] of sources) {
          const counts = source.interactions?.();
          if (!counts) continue;
          this.inc({ upstream, mode: 'suspended' }, counts.suspended);
          this.inc({ upstream, mode: 'running' }, counts.running);
        }
      },
    });
    this.interactionRounds = new Histogram({
      name: 'mrtr_interaction_rounds',
      help: 'input_required rounds of each ended interactive call',
      buckets: ROUND_BUCKETS,
      registers,
    });
    this.interactionsEnded = new Counter({
      name: 'mrtr_interactions_ended_total',
      help: 'Ended interactive calls by reason (completed, expired, cancelled, lost)',
      labelNames: ['upstream', 'reason'],
      registers,
    });
    this.tasksCreated = new Counter({
      name: 'mrtr_tasks_created_total',
      help: 'Tasks created (tasks extension), by kind: hosted (the proxy runs a plain legacy call) or translated (the legacy server runs it)',
      labelNames: ['upstream', 'kind'],
      registers,
    });
    this.tasksEnded = new Counter({
      name: 'mrtr_tasks_ended_total',
      help: 'Tasks ended, by kind and terminal status (completed, failed, cancelled)',
      labelNames: ['upstream', 'kind', 'status'],
      registers,
    });
    this.tasksDropped = new Counter({
      name: 'mrtr_tasks_dropped_total',
      help: 'What is not kept of finished tasks: result_too_large (the task failed instead), finished_cap (dropped for its principal newer ones)',
      labelNames: ['upstream', 'kind', 'reason'],
      registers,
    });
    this.stateRejections = new Counter({
      name: 'mrtr_state_rejections_total',
      help: 'Retries refused because of their requestState, by reason',
      labelNames: ['reason'],
      registers,
    });
    new Gauge({
      name: 'mrtr_legacy_sessions',
      help: 'Pooled legacy sessions by state (idle, exclusive, shared, connecting)',
      labelNames: ['upstream', 'state'],
      registers,
      collect() {
        this.reset();
        for (const [source, upstream] of sources) {
          for (const [state, n] of Object.entries(source.sessions())) this.inc({ upstream, state }, n);
        }
      },
    });
    new Gauge({
      name: 'mrtr_upstream_connections',
      help: 'TCP connections this instance holds to each network upstream, in any state (Linux; read from /proc)',
      labelNames: ['upstream'],
      registers,
      async collect() {
        this.reset();
        const network = [...sources].flatMap(([source, upstream]) => (source.endpoint ? [{ upstream, endpoint: source.endpoint }] : []));
        const counts = network.length > 0 ? await connectionsTo(network.map((n) => n.endpoint)) : undefined;
        if (!counts) return;
        for (const [i, n] of network.entries()) this.set({ upstream: n.upstream }, counts[i]!);
      },
    });
    this.sessionWait = new Histogram({
      name: 'mrtr_session_wait_seconds',
      help: 'Time a request waited for a legacy session (including starting one)',
      buckets: WAIT_BUCKETS,
      registers,
    });
    this.runnerSlotWait = new Histogram({
      name: 'mrtr_runner_slot_wait_seconds',
      help: "Time a parked call's answers waited for its legacy session's runner slot (another untied call was running)",
      labelNames: ['upstream'],
      buckets: WAIT_BUCKETS,
      registers,
    });
    this.unattributedRequests = new Counter({
      name: 'mrtr_unattributed_requests_total',
      help: 'Legacy requests without provenance refused because several running calls could have sent them',
      labelNames: ['upstream', 'method'],
      registers,
    });
    this.notificationsDropped = new Counter({
      name: 'mrtr_notifications_dropped_total',
      help: 'Notifications from a legacy server (logs, progress) the proxy could not deliver to a client that asked for them, by reason',
      labelNames: ['upstream', 'method', 'reason'],
      registers,
    });
    this.upstreamRequestDuration = new Histogram({
      name: 'mrtr_upstream_request_duration_seconds',
      help: 'Legacy request duration by upstream and method (an interactive call spans all its rounds)',
      labelNames: ['upstream', 'method'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.shadowComparisons = new Counter({
      name: 'mrtr_shadow_comparisons_total',
      help: 'Requests compared with a shadow candidate, by primary upstream, method and outcome (match, differ, candidate_error, skipped)',
      labelNames: ['upstream', 'method', 'outcome'],
      registers,
    });
  }

  /** Lets the gauges read one upstream's counts until the returned function is called. */
  watch(upstream: string, source: UpstreamGaugeSource): () => void {
    this.sources.set(source, upstream);
    return () => this.sources.delete(source);
  }

  /** The exposition text and its content type. */
  async expose(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  request(upstream: string, method: string, outcome: Outcome, seconds: number): void {
    this.requests.inc({ upstream, method, outcome });
    this.requestDuration.observe({ upstream, method }, seconds);
  }

  shadowComparison(upstream: string, method: string, outcome: ShadowOutcomeLabel): void {
    this.shadowComparisons.inc({ upstream, method: methodLabel(method), outcome });
  }

  input(upstream: string, method: string, input: InputLabel): void {
    this.inputRequired.inc({ upstream, method, input });
  }
}
