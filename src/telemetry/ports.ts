// What the bridge and the upstream layer report, as one narrow interface per upstream. The
// composition root hands each upstream's parts an implementation bound to its name
// (upstream-telemetry.ts); unit tests and the bench pass NO_TELEMETRY or one on a test registry.
import type { SpanContext } from '@opentelemetry/api';
import type { TraceCarrier } from './spans.js';

/** The first round's span of an interaction, kept so the later rounds link to it. Opaque to callers. */
export type TraceOrigin = SpanContext;

export interface LegacyRequestTrace {
  /** Trace context for the request's `_meta` (empty when tracing is off). */
  readonly carrier: TraceCarrier;
  end(error?: unknown): void;
}

export interface UpstreamTelemetry {
  /** Bridge: the current front request serves round `round` (0: a first request) of an interaction. */
  roundServed(round: number, first: TraceOrigin | undefined): void;
  /** Bridge: the current front request's span, to link the interaction's later rounds to. */
  traceOrigin(): TraceOrigin | undefined;
  /** Bridge: an `input_required` answer asks the client for these legacy requests. */
  inputRequired(method: string, inputs: readonly string[]): void;
  /** Bridge: an interactive call ended after `rounds` rounds. */
  interactionEnded(reason: string, rounds: number): void;
  /** Bridge: a retry was refused because of its requestState. */
  stateRejected(reason: string): void;
  /** Upstream: how long a request waited for a legacy session (successful or not). */
  sessionWaited(seconds: number): void;
  /** Legacy session: one request to the legacy server starts. */
  legacyRequest(method: string): LegacyRequestTrace;
}

const NO_TRACE: LegacyRequestTrace = { carrier: {}, end: () => {} };

export const NO_TELEMETRY: UpstreamTelemetry = {
  roundServed: () => {},
  traceOrigin: () => undefined,
  inputRequired: () => {},
  interactionEnded: () => {},
  stateRejected: () => {},
  sessionWaited: () => {},
  legacyRequest: () => NO_TRACE,
};
