// Where an interactive call's notifications (legacy progress and log lines) go: to the front
// request of the current round, if it asked for them (a progress token, a log level), or, while
// the call waits for its client, to the next round's request, as the legacy server's own client
// would have heard them on its one connection. What no request will ever carry is counted, never
// dropped silently (DropNotification).
import type { JsonObject } from '../protocol/json.js';
import { logVerdict } from '../protocol/log-level.js';
import type { NotificationDrop } from '../telemetry/ports.js';
import type { DropNotification, FrontSink } from './interaction-types.js';

/**
 * Notifications kept while the call waits for its client's next request, which carries them: a
 * server may log between its question and the answer. Past this, they are counted as dropped.
 */
export const MAX_HELD_NOTIFICATIONS = 100;

export type RelayedNotification = { method: 'notifications/message' | 'notifications/progress'; params: JsonObject };

export class NotificationRelay {
  private sink: FrontSink | undefined;
  /** Notifications on their way to the front; the final answer waits for them. Made on the first one: most calls send none. */
  private relaying: Set<Promise<void>> | undefined;
  /** Notifications that came while no front request was attached, for the next one. */
  private held: RelayedNotification[] | undefined;
  /** Set once no front request will ever be attached again: why its notifications are dropped. */
  private closedFor: NotificationDrop | undefined;
  /** A replayed run saying again what the client heard from the runs before: dropped as `replayed`. */
  private silent = false;

  constructor(private readonly dropped: DropNotification) {}

  /** A front request is attached (it hears what comes until `detach`). */
  get attached(): boolean {
    return this.sink !== undefined;
  }

  /** The front request of the current round receives notifications, first those held for it. */
  attach(sink: FrontSink): void {
    this.sink = sink;
    const held = this.held;
    this.held = undefined;
    for (const n of held ?? []) this.deliver(n);
  }

  /** Waits for notifications already on their way to the front, then stops relaying to it. */
  async detach(): Promise<void> {
    if (this.relaying) await Promise.all(this.relaying);
    this.sink = undefined;
  }

  /** No front request will come again (the call ended, or goes on as a task): what is held and what comes is dropped for `reason`. */
  close(reason: NotificationDrop): void {
    this.closedFor ??= reason;
    const held = this.held;
    this.held = undefined;
    for (const n of held ?? []) this.dropped(n.method, reason);
  }

  /** Until `speak`, what comes is dropped as `replayed` (the client has it from an earlier run). */
  silence(): void {
    this.silent = true;
  }

  speak(): void {
    this.silent = false;
  }

  /** The call was let go: nothing it says from now on is relayed, not even to the request still attached. */
  cut(reason: NotificationDrop): void {
    this.close(reason);
    this.sink = undefined;
  }

  deliver(n: RelayedNotification): void {
    if (this.silent) return this.dropped(n.method, 'replayed');
    const sink = this.sink;
    if (!sink) {
      this.hold(n);
      return;
    }
    if (n.method === 'notifications/progress') {
      // The client did not ask for progress: nothing to deliver.
      if (sink.progressToken !== undefined) this.relay(sink, { method: n.method, params: { ...n.params, progressToken: sink.progressToken } });
      return;
    }
    const verdict = logVerdict(n.params['level'], sink.logLevel);
    if (verdict === 'send') this.relay(sink, n);
    else if (verdict === 'invalid') this.dropped(n.method, 'invalid', `level ${JSON.stringify(n.params['level'])}`);
  }

  private hold(n: RelayedNotification): void {
    if (this.closedFor) return this.dropped(n.method, this.closedFor);
    this.held ??= [];
    if (this.held.length < MAX_HELD_NOTIFICATIONS) this.held.push(n);
    else this.dropped(n.method, 'call_ended', `more than ${MAX_HELD_NOTIFICATIONS} while the call waited for its client`);
  }

  private relay(sink: FrontSink, notification: RelayedNotification): void {
    const sent = sink.notify(notification).catch((err: unknown) => this.dropped(notification.method, 'send_failed', errorText(err)));
    this.relaying ??= new Set();
    const relaying = this.relaying;
    relaying.add(sent);
    void sent.finally(() => relaying.delete(sent));
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
