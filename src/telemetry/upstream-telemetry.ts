// UpstreamTelemetry for one upstream: metrics on the proxy's registry (when metrics are on) and the
// current front request's record and span (front-request.ts).
import { performance } from 'node:perf_hooks';
import { currentFrontRequest } from './front-request.js';
import { inputLabel, methodLabel } from './labels.js';
import type { ProxyMetrics } from './metrics.js';
import type { LegacyRequestTrace, UpstreamTelemetry } from './ports.js';
import { startLegacySpan } from './spans.js';

export function upstreamTelemetry(upstream: string, metrics: ProxyMetrics | undefined): UpstreamTelemetry {
  return {
    roundServed(round, first) {
      const request = currentFrontRequest();
      if (!request) return;
      request.mode = 'interactive';
      if (round === 0) request.round = 0;
      else request.resumed(first, round);
    },
    traceOrigin: () => currentFrontRequest()?.span.span.spanContext(),
    inputRequired(method, inputs) {
      const request = currentFrontRequest();
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
    legacyRequest(method): LegacyRequestTrace {
      const started = performance.now();
      const label = methodLabel(method);
      // Only requests made for a front request are traced (not readiness pings or start-up).
      const parent = currentFrontRequest()?.span.context;
      const span = parent === undefined ? undefined : startLegacySpan(parent, upstream, label);
      return {
        carrier: span?.carrier ?? {},
        end(error) {
          metrics?.upstreamRequestDuration.observe({ upstream, method: label }, (performance.now() - started) / 1000);
          span?.end(error);
        },
      };
    },
  };
}
