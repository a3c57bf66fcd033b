// What happens to one interaction, step by step, as its owner (owner.ts) tells it. The one stream
// telemetry, the audit and the live view hear (event-listeners.ts): none of them is called by hand
// where an interaction starts, asks, resumes or ends. Types only.
import type { WireError } from '../protocol/errors.js';
import type { InteractionObserver } from '../protocol/interaction-observer.js';
import type { JsonObject } from '../protocol/json.js';
import type { FrontRecord } from '../telemetry/ports.js';
import type { PendingInput } from './interaction-types.js';

/**
 * Why an interaction ended. `let_go`: a replay run asked its client and let its legacy call go (the
 * retry runs the call again); `task`: a hosted call went on as a task of the proxy, whose end is the
 * task's (tasks/hosted-task.ts).
 */
export type EndReason = 'completed' | 'expired' | 'cancelled' | 'lost' | 'legacy_gave_up' | 'let_go' | 'task';

/** A question a round asks the client. */
export type AskedInput = Pick<PendingInput, 'key' | 'method' | 'request'>;

/** What the observers hear when the call is sent (protocol/interaction-observer.ts onStart). */
export type StartInfo = Parameters<InteractionObserver['onStart']>[0];

export type InteractionEvent =
  | { type: 'started'; handle: string; start: StartInfo }
  | {
      type: 'round_asked';
      handle: string;
      round: number;
      /** The front request whose answer asks (its telemetry record) and its method. */
      record: FrontRecord;
      method: string;
      asked: readonly AskedInput[];
      /** The round that asks for the client's roots before the call is sent (roots-round.ts). */
      rootsRound?: true;
    }
  | { type: 'answers_received'; handle: string; round: number; answers: ReadonlyMap<string, unknown> }
  | { type: 'replayed'; handle: string; fromRecord: number; mismatched: number }
  | { type: 'ended'; handle: string; reason: EndReason; rounds: number; why?: string; result?: JsonObject; error?: WireError };

/** Hears every event of every interaction of a bridge, synchronously; must not throw or block. */
export type InteractionListener = (event: InteractionEvent) => void;
