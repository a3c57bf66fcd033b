// What the bridge is handed: one front request (envelope lifted, nothing of HTTP or stdio), the
// limits it applies and the parts it is built from.
import type { FrontCapabilities } from '../protocol/capabilities.js';
import type { JsonObject, Root } from '../protocol/json.js';
import type { InteractiveMethod } from '../protocol/methods.js';
import type { Clock } from '../runtime/clock.js';
import type { RequestIdentity } from '../state/fingerprint.js';
import type { Sealer } from '../state/seal.js';
import type { Logger } from '../telemetry/logger.js';
import type { UpstreamTelemetry } from '../telemetry/ports.js';
import type { FrontSink } from './interaction.js';
import type { InteractionObserver, SessionSource } from './ports.js';
import type { PrincipalLimits } from './principal-load.js';

/** One front request, as the front hands it over: envelope lifted, nothing of HTTP or stdio. */
export interface FrontCall {
  method: InteractiveMethod;
  /** Params to send upstream: envelope keys, inputResponses and requestState already removed. */
  params: JsonObject;
  identity: RequestIdentity;
  capabilities: FrontCapabilities;
  principal: string;
  requestState?: string | undefined;
  inputResponses?: unknown;
  droppedInputKeys?: readonly string[];
  sink: FrontSink;
  signal: AbortSignal;
}

/** A front call with the roots its session serves, once the client gave them (sealed in every later round). */
export type BoundCall = FrontCall & { roots?: readonly Root[] | undefined };

export interface BridgeLimits extends PrincipalLimits {
  interactionTtlMs: number;
  gatherWindowMs: number;
  callTimeoutMs: number;
}

export interface BridgeOptions {
  sessions: SessionSource;
  sealer: Sealer;
  instance: string;
  limits: BridgeLimits;
  log: Logger;
  clock: Clock;
  /** Metrics and trace hooks; none when absent. */
  telemetry?: UpstreamTelemetry;
  /** Told of each interaction's start, rounds and end (the audit, the live view). */
  observer?: InteractionObserver | undefined;
}
