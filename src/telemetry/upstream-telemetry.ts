// UpstreamTelemetry for one upstream: metrics on the proxy's registry (when metrics are on) and the
// record and span of the front request being served (front-request.ts), as the caller hands it down.
import { performance } from 'node:perf_hooks';
import { inputLabel, methodLabel } from './labels.js';
import type { ProxyMetrics } from './metrics.js';
import type { Logger } from './logger.js';
import type { LegacyRequestTrace, NotificationDrop, UpstreamTelemetry } from './ports.js';
import { startLegacySpan, type LegacySpan, type TraceCarrier } from './spans.js';

export function upstreamTelemetry(upstream: string, metrics: ProxyMetrics | undefined, log?: Logger): UpstreamTelemetry {
  // One warn line per reason for the life of the upstream: a server that logs outside calls does
  // it all the time, and the counter says how often.
  const warned = new Set<NotificationDrop>();
  return {
    roundServed(request, round, first) {
      if (!request) return;
      request.mode = 'interactive';
      if (round === 0) request.round = 0;
      else request.resumed(first, round);
    },
    traceOrigin: (request) => request?.span.span.spanContext(),
    inputRequired(request, method, inputs) {
      if (request) request.inputRequired = true;
      for (const input of inputs) {
        const label = inputLabel(input);
        if (label) metrics?.input(upstream, methodLabel(method), label);
      }
    },
    interactionEnded(reason, rounds) {
      metrics?.interactionsEnded.inc({ upstream, reason });
      metrics?.interactionRounds.observe(rounds);
    },
    stateRejected(reason) {
      metrics?.stateRejections.inc({ reason });
    },
    sessionWaited(seconds) {
      metrics?.sessionWait.observe(seconds);
    },
    runnerSlotWaited(seconds) {
      metrics?.runnerSlotWait.observe({ upstream }, seconds);
    },
    unattributed(method) {
      metrics?.unattributedRequests.inc({ upstream, method: methodLabel(method) });
    },
    notificationDropped(method, reason, detail) {
      metrics?.notificationsDropped.inc({ upstream, method: methodLabel(method), reason });
      // Not relaying a replayed run's repeats is the design, nothing to warn about.
      if (reason === 'replayed' || warned.has(reason)) return;
      warned.add(reason);
      log?.warn(
        `a notification from the legacy server could not be delivered: ${DROP_WHY[reason]} (counted in mrtr_notifications_dropped_total; warned once per reason)`,
        {
          method,
          reason,
          ...(detail === undefined ? {} : { detail }),
        },
      );
    },
    legacyRequest(method, request): LegacyRequestTrace {
      // Only requests made for a front request are traced (not readiness pings or start-up).
      const parent = request?.span.context;
      const span = parent === undefined ? undefined : startLegacySpan(parent, upstream, methodLabel(method));
      return new LegacyRequestRecord(upstream, methodLabel(method), metrics, span);
    },
  };
}

/**
 * One legacy request's duration and span. A class: an interactive call holds it for as long as
 * its user thinks, and its `end` on the prototype costs the call no closure.
 */
class LegacyRequestRecord implements LegacyRequestTrace {
  private readonly started = performance.now();

  constructor(
    private readonly upstream: string,
    private readonly method: string,
    private readonly metrics: ProxyMetrics | undefined,
    private readonly span: LegacySpan | undefined,
  ) {}

  get carrier(): TraceCarrier {
    return this.span?.carrier ?? NO_CARRIER;
  }

  end(error?: unknown): void {
    this.metrics?.upstreamRequestDuration.observe({ upstream: this.upstream, method: this.method }, (performance.now() - this.started) / 1000);
    this.span?.end(error);
  }
}

const DROP_WHY: Record<NotificationDrop, string> = {
  outside_call: 'it belongs to no call, and a 2026-07-28 client hears logs only on the response stream of the request that asked',
  unattributed: 'several calls run on its session and nothing on the wire says which one it belongs to',
  call_ended: 'it came while the call waited for its client, whose next request never came',
  task: 'the call runs as a task, and a task has no response stream to carry it',
  send_failed: "the front request's stream refused it",
  invalid: 'its level is not a log level',
  replayed: 'the client heard it from an earlier run of the replayed call',
};

const NO_CARRIER: TraceCarrier = Object.freeze({});
