// One reverse-bridge session's `subscriptions/listen` stream on its 2026-07-28 server: what the
// legacy client had as list_changed notifications and resources/subscribe. The stream asks for
// every list the server announces changes of and the URIs the client subscribed to; a change of
// those URIs opens a new stream, which takes over once acknowledged (the older one then closes),
// since a listen request's filter cannot be changed. A stream that drops is reopened with backoff
// while the session lives; close() ends every stream and timer of the session.
import { randomUUID } from 'node:crypto';
import { isJsonObject, type JsonObject } from '../protocol/json.js';
import { ProxyError } from '../protocol/errors.js';
import type { Logger } from '../telemetry/logger.js';
import type { ToClient } from './client-session-pump.js';
import type { RelayTarget } from './http-relay.js';
import { honorsAnything, type Listenable, listenEventOf, listenFilterOf, nextListenRetry } from './listen-filter.js';
import { exchange } from './modern-exchange.js';

/** Resource URIs one session may listen for: its listen request carries them all. */
export const MAX_RESOURCE_SUBSCRIPTIONS = 256;

export interface SessionListenOptions {
  target: RelayTarget;
  can: Listenable;
  /** The `_meta` of the session's requests (what its client declared at initialize). */
  envelope: JsonObject;
  toClient: ToClient;
  /** Streams open across the route's sessions (its status). */
  streams: { count: number };
  log: Logger;
}

interface Stream {
  readonly id: string;
  readonly seq: number;
  readonly abort: AbortController;
  ackedAt?: number;
  honored?: JsonObject;
}

export class SessionListen {
  private readonly uris = new Set<string>();
  /** The acknowledged stream whose changes reach the client. */
  private current: Stream | undefined;
  /** Streams opened and not acknowledged yet. */
  private readonly pending = new Set<Stream>();
  private seq = 0;
  private retryMs: number | undefined;
  private retry: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: SessionListenOptions) {}

  /** What the server announces (a client may subscribe to resources only when it supports that). */
  get can(): Listenable {
    return this.options.can;
  }

  /** Opens the session's stream, if the server announces anything; a failure is retried in the background. */
  start(): void {
    this.reopen().catch(() => {});
  }

  /** Streams open now (acknowledged or not). */
  get open(): number {
    return this.pending.size + (this.current ? 1 : 0);
  }

  /** Listens for `uri` too; resolves once a stream listening for it is acknowledged. */
  async subscribe(uri: string): Promise<void> {
    if (this.uris.has(uri)) return;
    if (this.uris.size >= MAX_RESOURCE_SUBSCRIPTIONS)
      throw new ProxyError('session_limit', 'subscription_limit', `a session may subscribe to at most ${MAX_RESOURCE_SUBSCRIPTIONS} resources`);
    this.uris.add(uri);
    try {
      const honored = await this.reopen();
      const uris = honored?.['resourceSubscriptions'];
      if (!Array.isArray(uris) || !uris.includes(uri))
        throw new ProxyError('upstream_failed', 'upstream_invalid', `the 2026-07-28 server did not take the subscription to ${uri}`);
    } catch (err) {
      this.uris.delete(uri);
      throw err;
    }
  }

  /**
   * Stops listening for `uri`: its updates stop reaching the client at once, and a stream without
   * it replaces the current one (if that stream cannot be opened, the current one stays, or one is
   * reopened later: either way the URI's updates are not passed on).
   */
  async unsubscribe(uri: string): Promise<void> {
    if (!this.uris.delete(uri)) return;
    await this.reopen().catch(() => {});
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.retry);
    this.closeStreams();
  }

  /**
   * A stream with the filter of now; resolves with what the server honored when it is
   * acknowledged (undefined when there is nothing to listen for), rejects when it ends first.
   */
  private reopen(): Promise<JsonObject | undefined> {
    clearTimeout(this.retry);
    this.retry = undefined;
    if (this.closed) return Promise.reject(new Error('the session ended'));
    const filter = listenFilterOf(this.options.can, this.uris);
    if (filter === undefined) {
      this.closeStreams();
      return Promise.resolve(undefined);
    }
    const stream: Stream = { id: `listen-${randomUUID()}`, seq: ++this.seq, abort: new AbortController() };
    this.pending.add(stream);
    this.options.streams.count++;
    return new Promise<JsonObject | undefined>((resolve, reject) => {
      const onMessage = (message: JsonObject) => {
        const event = listenEventOf(message, stream.id);
        if (event.kind === 'acknowledged' && stream.ackedAt === undefined) {
          stream.ackedAt = Date.now();
          stream.honored = event.honored;
          this.acknowledged(stream);
          resolve(event.honored);
        } else if (event.kind === 'change' && this.current === stream && this.wanted(event.notification)) {
          this.options.toClient(event.notification).catch(() => {});
        }
      };
      const request = { id: stream.id, method: 'subscriptions/listen', params: { notifications: filter, _meta: this.options.envelope } };
      exchange(this.options.target.url, this.options.target.headers, request, stream.abort.signal, onMessage).then(
        (answer) => {
          const error = isJsonObject(answer['error']) ? answer['error'] : undefined;
          this.ended(stream, error ? `the server refused to listen: ${String(error['message'])}` : 'the server ended the listen stream', reject);
        },
        (err: Error) => this.ended(stream, `the listen stream failed: ${err.message}`, reject),
      );
    });
  }

  /** The newest acknowledged stream takes over; the one it replaces (or a stale one) closes. */
  private acknowledged(stream: Stream): void {
    this.pending.delete(stream);
    if (this.current && this.current.seq > stream.seq) return stream.abort.abort();
    this.current?.abort.abort();
    this.current = stream;
  }

  private ended(stream: Stream, reason: string, reject: (err: Error) => void): void {
    this.options.streams.count--;
    this.pending.delete(stream);
    if (this.current === stream) this.current = undefined;
    if (stream.ackedAt === undefined) reject(new Error(reason));
    // Closed by the session (replaced, unsubscribed, ended): nothing to reopen.
    if (stream.abort.signal.aborted || this.closed) return;
    stream.abort.abort();
    if (this.current || this.pending.size > 0) return;
    // The server acknowledged nothing it would send: reopening would ask it again for nothing.
    if (stream.honored && !honorsAnything(stream.honored)) return;
    const lived = stream.ackedAt === undefined ? 0 : Date.now() - stream.ackedAt;
    this.retryMs = nextListenRetry(this.retryMs, lived);
    this.options.log.info('reverse bridge: listen stream dropped, reopening', { reason, inMs: this.retryMs });
    this.retry = setTimeout(() => this.reopen().catch(() => {}), this.retryMs);
    this.retry.unref();
  }

  private closeStreams(): void {
    for (const s of this.pending) s.abort.abort();
    this.pending.clear();
    this.current?.abort.abort();
    this.current = undefined;
  }

  /** A resource's update reaches the client only while it is subscribed (an unsubscribe applies before the stream is replaced). */
  private wanted(notification: JsonObject): boolean {
    if (notification['method'] !== 'notifications/resources/updated') return true;
    const params = notification['params'] as JsonObject;
    return this.uris.has(params['uri'] as string);
  }
}
