// What the bridge and the upstream layer report, as one narrow interface per upstream. The
// composition root hands each upstream's parts an implementation bound to its name
// (upstream-telemetry.ts); unit tests and the bench pass NO_TELEMETRY or one on a test registry.
import type { SpanContext } from '@opentelemetry/api';
import type { FrontRequest } from './front-request.js';
import type { TraceCarrier } from './spans.js';

/** The front request being served, as the front hands it down (undefined when telemetry does not track it). */
export type FrontRecord = FrontRequest | undefined;

/** The first round's span of an interaction, kept so the later rounds link to it. Opaque to callers. */
export type TraceOrigin = SpanContext;

export interface LegacyRequestTrace {
  /** Trace context for the request's `_meta` (empty when tracing is off). */
  readonly carrier: TraceCarrier;
  end(error?: unknown): void;
}

export interface UpstreamTelemetry {
  /** Bridge: front request `record` serves round `round` (0: a first request) of an interaction. */
  roundServed(record: FrontRecord, round: number, first: TraceOrigin | undefined): void;
  /** Bridge: the front request's span, to link the interaction's later rounds to. */
  traceOrigin(record: FrontRecord): TraceOrigin | undefined;
  /** Bridge: `record`'s `input_required` answer asks the client for these legacy requests. */
  inputRequired(record: FrontRecord, method: string, inputs: readonly string[]): void;
  /** Bridge: an interactive call ended after `rounds` rounds. */
  interactionEnded(reason: string, rounds: number): void;
  /** Bridge: a retry was refused because of its requestState. */
  stateRejected(reason: string): void;
  /** Upstream: how long a request waited for a legacy session (successful or not). */
  sessionWaited(seconds: number): void;
  /** Upstream: how long a parked call's answers waited for its session's runner slot, when they did. */
  runnerSlotWaited(seconds: number): void;
  /** Legacy session: a request without provenance was refused, since several running calls could have sent it. */
  unattributed(method: string): void;
  /**
   * Bridge, legacy session: a notification the legacy server sent could not be delivered to a
   * client that asked for it (see NotificationDrop).
   */
  notificationDropped(method: string, reason: NotificationDrop, detail?: string): void;
  /** Legacy session: one request to the legacy server starts, made for `record` (traced only then). */
  legacyRequest(method: string, record: FrontRecord): LegacyRequestTrace;
}

/**
 * Why a legacy server's notification did not reach a client: `outside_call`, it belongs to no
 * call; `unattributed`, several calls run on its session and it did not say whose it is; `call_ended`, it came while the call waited for its client's next request, which never
 * came (or too many came in the wait); `task`, the call runs as a task, which has no response
 * stream to carry it; `send_failed`, the front request's stream refused it; `invalid`, its level
 * is no log level; `replayed`, a replayed call's run said it again before it got past its record,
 * and the client heard it from an earlier run.
 */
export type NotificationDrop = 'outside_call' | 'unattributed' | 'call_ended' | 'task' | 'send_failed' | 'invalid' | 'replayed';

/** hosted: the proxy runs a plain legacy call as a task; translated: the legacy server's own task. */
export type TaskKind = 'hosted' | 'translated';

/** Bridge: each task created and ended (metrics, a span per task, the audit: task-telemetry.ts). */
export interface TaskObserver {
  /** `principal`: the principal's tag (state/principal.ts), never the principal; `origin`: the span of the tools/call that created it. */
  onCreated(e: { task: string; kind: TaskKind; tool: string; principal: string; origin?: TraceOrigin | undefined }): void;
  /** `status`: completed, failed or cancelled. */
  onEnded(e: { task: string; kind: TaskKind; tool: string; status: string; error?: string | undefined }): void;
  /**
   * What a proxy does not keep (bridge/tasks/task-bounds.ts): `result_too_large` (the task failed
   * instead), `finished_cap` (a finished task dropped for its principal's newer ones).
   */
  onDropped?(e: { task: string; kind: TaskKind; reason: 'result_too_large' | 'finished_cap' }): void;
}

const NO_TRACE: LegacyRequestTrace = { carrier: {}, end: () => {} };

export const NO_TELEMETRY: UpstreamTelemetry = {
  roundServed: () => {},
  traceOrigin: () => undefined,
  inputRequired: () => {},
  interactionEnded: () => {},
  stateRejected: () => {},
  sessionWaited: () => {},
  runnerSlotWaited: () => {},
  unattributed: () => {},
  notificationDropped: () => {},
  legacyRequest: () => NO_TRACE,
};
