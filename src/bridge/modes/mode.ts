// How the bridge runs a front request, as strategies behind one interface: each mode (a held call,
// replay, the roots round, a legacy task, a hosted task, the URL-consent gate) is a module of its
// own that may begin a first request, resume a retry, or act on a running call's stops. The bridge
// asks the modes in order and the first that answers serves; adding a mode edits no other mode.
import type { Clock } from '../../clock.js';
import type { JsonObject } from '../../protocol/json.js';
import type { RetryClaims } from '../../state/claims.js';
import type { Logger } from '../../telemetry/logger.js';
import type { UpstreamTelemetry } from '../../telemetry/ports.js';
import type { GO_ON } from '../drive.js';
import type { BoundCall, BridgeLimits, BridgeOptions, FrontCall } from '../front-call.js';
import type { DropNotification, Interaction, Stop } from '../interaction.js';
import type { InteractionOwner } from '../owner.js';
import type { PrincipalLoad } from '../principal-load.js';
import type { RootsRound } from '../roots-round.js';
import type { SuspensionTable } from '../suspensions.js';
import type { TaskTable } from '../tasks/task-table.js';

/** What every mode of one bridge shares. */
export interface ModeContext {
  /** The bridge's parts; the observer is not among them: it hears the owners' events. */
  readonly opts: Omit<BridgeOptions, 'observer'>;
  readonly clock: Clock;
  readonly log: Logger;
  readonly telemetry: UpstreamTelemetry;
  /** The limits now (a reload changes them). */
  limits(): BridgeLimits;
  /** The bridge's: a mode suspends, claims and ends through an interaction's owner. */
  readonly suspended: SuspensionTable<InteractionOwner>;
  readonly load: PrincipalLoad;
  readonly tasks: TaskTable;
  readonly dropNotification: DropNotification;
  /** The owner of a new interaction (owner.ts). */
  own(subject: Interaction | RootsRound, principal: string, origin?: InteractionOwner['origin']): InteractionOwner;
}

/** A retry: a replay state's claims, or a held round's claims and the owner of the suspended round. */
export type ResumeTarget = { claims: RetryClaims; owner?: undefined } | { claims: RetryClaims; owner: InteractionOwner };

/** One legacy call running for a front request: its owner and call, the request of this round. */
export interface RunningCall {
  readonly owner: InteractionOwner;
  readonly interaction: Interaction;
  readonly front: BoundCall;
}

/**
 * Each hook answers `undefined` at once when what it is shown is not its mode's, so a request pays
 * no await for the modes it passes by; only the mode that takes it is awaited.
 */
export interface Mode {
  /** A first request: this mode's answer; undefined (at once, or once it looked) when it does not serve it. */
  begin?(front: BoundCall): Promise<JsonObject | undefined> | undefined;
  /** A retry: this mode's answer, or undefined when the round is not this mode's. */
  resume?(front: FrontCall, target: ResumeTarget): Promise<JsonObject> | undefined;
  /** Before a running call waits for its next event: a stop this mode already holds. */
  pending?(call: RunningCall): Stop | undefined;
  /** A running call's stop: this mode's answer (GO_ON: wait for the call's next event), or undefined when it is not this mode's. */
  onStop?(call: RunningCall, stop: Stop): Promise<JsonObject | typeof GO_ON> | undefined;
  /** The client's answers reached a held call: a mode may end it (throws) or send it again. */
  onResumed?(call: RunningCall): Promise<void> | undefined;
  /** How long the call may run in one round, when this mode says less than --call-timeout. */
  roundMs?(call: RunningCall): number | undefined;
}
