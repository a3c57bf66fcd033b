// What the bridge is handed: one front request (envelope lifted, nothing of HTTP or stdio), the
// limits it applies and the parts it is built from.
import type { FrontCapabilities } from '../protocol/capabilities.js';
import type { JsonObject, Root } from '../protocol/json.js';
import type { InteractiveMethod } from '../protocol/methods.js';
import type { Clock } from '../clock.js';
import type { RequestIdentity } from '../state/fingerprint.js';
import type { ConsumedLedger } from '../state/ledger.js';
import type { TaskStore } from '../state/task-store.js';
import type { Sealer, StateClaims } from '../state/seal.js';
import type { Logger } from '../telemetry/logger.js';
import type { FrontRecord, TaskObserver, UpstreamTelemetry } from '../telemetry/ports.js';
import type { FrontSink } from './interaction.js';
import type { InteractionObserver, SessionSource, ToolTasks } from './ports.js';
import type { PrincipalLimits } from './principal-load.js';
import type { SuspendPolicy, ToolHints } from './suspend-mode.js';
import type { HostedTaskPolicy } from './tasks/hosted-task.js';

/** One front request, as the front hands it over: envelope lifted, nothing of HTTP or stdio. */
export interface FrontCall {
  method: InteractiveMethod;
  /** Params to send upstream: envelope keys, inputResponses and requestState already removed. */
  params: JsonObject;
  identity: RequestIdentity;
  capabilities: FrontCapabilities;
  principal: string;
  requestState?: string | undefined;
  /** requestState's claims, when the front opened it already (to route it); the bridge checks them instead of opening it again. */
  openedState?: StateClaims | undefined;
  inputResponses?: unknown;
  droppedInputKeys?: readonly string[];
  sink: FrontSink;
  signal: AbortSignal;
  /** The front request's telemetry record (its span is the parent of the legacy requests made for it). */
  record?: FrontRecord;
}

/**
 * A front call with the roots its session serves, once the client gave them (sealed in every later
 * round); `rootsRound` when they came from the roots round the proxy asked before sending the call.
 */
export type BoundCall = FrontCall & {
  roots?: readonly Root[] | undefined;
  rootsRound?: true;
  /**
   * Run as a task (a first tools/call from a client that declared the tasks extension, decided by
   * tasks/task-dispatch.ts). `legacy`: the legacy server's own task, sent task-augmented, held
   * (never replayed), on a session of its own, which the task keeps. `hosted`: the proxy's task
   * around a plain legacy call (tasks/hosted-task.ts).
   */
  task?: 'legacy' | 'hosted' | undefined;
};

export interface BridgeLimits extends PrincipalLimits {
  interactionTtlMs: number;
  gatherWindowMs: number;
  callTimeoutMs: number;
  /** A replay state larger than this is not issued: the call continues in hold mode. */
  maxStateBytes: number;
  suspend: SuspendPolicy;
  /** What is kept of finished tasks (tasks/task-bounds.ts); absent: the defaults. */
  maxTaskResultBytes?: number;
  maxFinishedTasks?: number;
  maxFinishedTaskBytes?: number;
  /** Tools the proxy runs as tasks of its own; absent: none (tasks/hosted-task.ts). */
  tasks?: HostedTaskPolicy | undefined;
}

export interface BridgeOptions {
  sessions: SessionSource;
  sealer: Sealer;
  /** This process and upstream: a held call's state opens only here. */
  instance: string;
  /** The upstream's name: a replayed call's state opens on any instance serving it. */
  upstream: string;
  /** This instance's base URL as other instances reach it (held states name it); unset: one instance. */
  advertiseUrl?: string;
  /** Consumed replay states (single use across every instance that shares it). */
  ledger: ConsumedLedger;
  /** Where task records are written for every instance to read (--state-store); absent: tasks live in this instance only. */
  taskStore?: TaskStore;
  /** A tool's annotations from tools/list, for `auto`; undefined when unknown. */
  /** `principal`: whose sessions list the tools if they are not known yet. */
  toolHints?: (name: string, caps: FrontCapabilities, principal?: string) => Promise<ToolHints | undefined>;
  limits: BridgeLimits;
  log: Logger;
  clock: Clock;
  /** What the upstream says of a tool's task support; absent: its tools never run as legacy tasks. */
  tools?: ToolTasks | undefined;
  /** Metrics and trace hooks; none when absent. */
  telemetry?: UpstreamTelemetry;
  /** Told of each interaction's start, rounds and end (the audit, the live view): it hears the interaction events (event-listeners.ts). */
  observer?: InteractionObserver | undefined;
  /** Told of each task created and ended (metrics, the audit). */
  taskObserver?: TaskObserver | undefined;
}
