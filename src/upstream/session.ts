// One legacy MCP session: a v1 SDK Client over one transport, initialized with a fixed capability
// set, carrying one or many calls at once. Server-initiated requests go to the interactive call
// they belong to (attribution.ts decides from their provenance); with none they are answered by the
// local policy. Legacy `ping` is answered by the SDK itself.
//
// The v1 SDK's Client is used through its public API only, for what it does well: the initialize
// handshake, numbering requests and matching their responses, cancellation, ping. It is connected
// to the legacy transport through `SdkSide`, which lets the session see each message first: the
// id of each request it sends, and the server's requests, progress and log lines before the SDK.
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CancelledNotificationSchema,
  McpError,
  ResultSchema,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageExtraInfo,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { MAX_TIMER_MS } from '../config/defaults.js';
import type { LegacyCapabilities } from '../protocol/capabilities.js';
import { answerLeavesOtherRoots } from '../protocol/roots.js';
import type { JsonObject, ServerRequest } from '../protocol/json.js';
import type { Logger } from '../telemetry/logger.js';
import type { FrontRecord } from '../telemetry/ports.js';
import { CLIENT_INFO } from '../version.js';
import { StreamGoneError } from './transport/stream-gone.js';
import { withTraceContext } from './trace-context.js';
import { askKey } from './ask-learning.js';
import { NO_PROVENANCE, routeNotification, routeServerRequest, type InFlight, type Provenance } from './attribution.js';
import { JSONRPC, LEGACY } from '../protocol/errors.js';
import { ServerRequests } from './server-requests.js';
import type { SessionHolder, SessionHooks, UpstreamInfo } from './session-types.js';

export type { SessionHolder, SessionHooks, UpstreamInfo } from './session-types.js';

const LIVENESS_TIMEOUT_MS = 5000;
const CHANGE_METHODS = new Set([
  'notifications/tools/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/list_changed',
  'notifications/resources/updated',
]);

/** `ready`, or a rejection as the SDK's for a request cancelled before it was sent. */
function readyOrAborted(ready: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return ready;
  return new Promise<void>((resolve, reject) => {
    const aborted = () => reject(new McpError(LEGACY.REQUEST_TIMEOUT, String(signal.reason ?? 'Request cancelled')));
    if (signal.aborted) return aborted();
    signal.addEventListener('abort', aborted, { once: true });
    ready.then(() => {
      signal.removeEventListener('abort', aborted);
      if (signal.aborted) aborted();
      else resolve();
    });
  });
}

/** What the session sees of the messages between the SDK's Client and the legacy transport. */
interface WireWatch {
  /** A message from the server; true when the session took it (the SDK never sees it). */
  received(message: JSONRPCMessage, extra: MessageExtraInfo | undefined): boolean;
  /** A message the SDK is sending, before it goes. */
  sending(message: JSONRPCMessage): void;
  /** The revision the SDK negotiated at initialize. */
  negotiated(version: string): void;
}

/** The transport as the SDK's Client sees it: the legacy transport, with the session watching both ways. */
class SdkSide implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  constructor(
    private readonly inner: Transport,
    private readonly watch: WireWatch,
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  start(): Promise<void> {
    this.inner.onmessage = (message, extra) => {
      if (!this.watch.received(message, extra)) this.onmessage?.(message, extra);
    };
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.watch.sending(message);
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  setProtocolVersion(version: string): void {
    this.watch.negotiated(version);
    this.inner.setProtocolVersion?.(version);
  }
}

/** The progress tokens the session gives its calls (`request`); a report with another belongs to no call. */
const PROGRESS_TOKEN_PREFIX = 'mrtr-progress-';

export class LegacySession {
  readonly id = randomUUID().slice(0, 8);
  /** Receives requests that belong to no call in flight instead of the local answer (the bridge's let-go). */
  holder: SessionHolder | undefined;
  closed = false;
  closeReason = '';
  info!: UpstreamInfo;
  private protocolVersion = '2024-11-05';
  private readonly client: Client;
  private readonly log: Logger;
  private probing = false;
  /** Our own progress tokens (see `request`) and whom their notifications go to. */
  private readonly progress = new Map<string, (p: JsonObject) => void>();
  private progressSeq = 0;
  /** Interactive calls in flight, by the id of their legacy request. */
  private readonly calls = new Map<RequestId, InFlight<SessionHolder>>();
  /** A call's client gave the server other roots than the session serves: it is told they changed once no call runs. */
  private otherRootsGiven = false;
  /** The server's requests being answered (all but ping). */
  private readonly answering: ServerRequests;
  /** The interactive call whose request the SDK is sending right now (see `send`). */
  private sendingFor: { call: InFlight<SessionHolder>; id?: RequestId } | undefined;
  private readonly sdkSide: SdkSide;

  private constructor(
    private readonly transport: Transport,
    readonly capabilities: LegacyCapabilities,
    private readonly hooks: SessionHooks,
    log: Logger,
  ) {
    this.log = log.child({ session: this.id });
    this.client = new Client(CLIENT_INFO, { capabilities: { ...capabilities } });
    this.answering = new ServerRequests(transport, (err) => this.onTransportError(err));
    this.client.fallbackNotificationHandler = async (n) => {
      if (CHANGE_METHODS.has(n.method)) this.hooks.onChange(n.method, n.params as JsonObject | undefined);
    };
    // Every server request but ping is answered by the session, so it also hears every withdrawal.
    this.client.setNotificationHandler(CancelledNotificationSchema, (n) => {
      const id = n.params.requestId;
      if (id !== undefined) this.answering.withdraw(id, n.params.reason ?? 'withdrawn by the legacy server');
    });
    this.client.onclose = () => this.onClose();
    this.client.onerror = (err) => this.onTransportError(err);
    this.sdkSide = new SdkSide(transport, {
      received: (message, extra) => this.receive(message, extra),
      sending: (message) => {
        const sending = this.sendingFor;
        if (sending !== undefined && 'method' in message && 'id' in message) {
          sending.id = message.id;
          this.calls.set(message.id, sending.call);
          this.sendingFor = undefined;
        }
      },
      // Kept for answer shaping.
      negotiated: (version) => {
        this.protocolVersion = version;
      },
    });
  }

  static async connect(transport: Transport, capabilities: LegacyCapabilities, hooks: SessionHooks, log: Logger, timeoutMs: number): Promise<LegacySession> {
    const session = new LegacySession(transport, capabilities, hooks, log);
    try {
      await session.client.connect(session.sdkSide, { timeout: timeoutMs });
    } catch (err) {
      await session.close('initialize failed').catch(() => {});
      throw err;
    }
    const serverInfo = session.client.getServerVersion();
    const caps = session.client.getServerCapabilities();
    if (!serverInfo || !caps) throw new Error('legacy server sent no serverInfo/capabilities');
    const instructions = session.client.getInstructions();
    session.info = {
      serverInfo: serverInfo as UpstreamInfo['serverInfo'],
      capabilities: caps as JsonObject,
      protocolVersion: session.protocolVersion,
      ...(instructions === undefined ? {} : { instructions }),
    };
    session.log.debug('legacy session ready', { protocolVersion: session.protocolVersion, capabilities: Object.keys(capabilities) });
    return session;
  }

  get negotiatedVersion(): string {
    return this.protocolVersion;
  }

  /** Whether the server is a local process whose state `running` reads (stdio). */
  get localProcess(): boolean {
    return typeof (this.transport as Transport & { running?: unknown }).running === 'function';
  }

  /** Whether the server's local process runs (stdio only; see process-running.ts); undefined elsewhere. */
  running(threads: 'all' | 'main'): boolean | undefined {
    return (this.transport as Transport & { running?: (threads: 'all' | 'main') => boolean | undefined }).running?.(threads);
  }

  /**
   * Sends a request and resolves with the raw result (unknown keys kept). The SDK's 60 s default
   * timeout is replaced by the longest timer Node allows: the proxy applies its own timeouts.
   */
  request(
    method: string,
    params: JsonObject | undefined,
    opts: { signal?: AbortSignal; onprogress?: (p: JsonObject) => void; holder?: SessionHolder; untied?: boolean; record?: FrontRecord } = {},
  ): Promise<JsonObject> {
    // An interactive call waits until the server has answered the standalone GET stream: a server
    // that asks untied sends its question there, and drops it when that stream is not open yet.
    const ready = opts.holder ? (this.transport as Transport & { standaloneReady?: () => Promise<void> | undefined }).standaloneReady?.() : undefined;
    if (ready) return readyOrAborted(ready, opts.signal).then(() => this.send(method, params, opts));
    try {
      return this.send(method, params, opts);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /**
   * `request` without an async function: the returned promise gets one reaction and no suspended
   * frame, since it waits as long as a waiting user thinks.
   */
  private send(
    method: string,
    params: JsonObject | undefined,
    opts: { signal?: AbortSignal; onprogress?: (p: JsonObject) => void; holder?: SessionHolder; untied?: boolean; record?: FrontRecord },
  ): Promise<JsonObject> {
    const options = { timeout: MAX_TIMER_MS, ...(opts.signal ? { signal: opts.signal } : {}) };
    const call = opts.holder && { holder: opts.holder, key: askKey(method, params), untied: opts.untied ?? true, asked: false };
    const trace = this.hooks.trace?.(method, opts.record);
    if (trace) params = withTraceContext(params, trace.carrier);
    let token: string | undefined;
    if (opts.onprogress) {
      token = `${PROGRESS_TOKEN_PREFIX}${++this.progressSeq}`;
      this.progress.set(token, opts.onprogress);
      params = { ...params, _meta: { ...(params?.['_meta'] as JsonObject | undefined), progressToken: token } };
    }
    // The SDK sends a request within its request() call, so SdkSide sees it go and the call is
    // registered under the id the SDK gave it before any answer can arrive.
    const sending: { call: InFlight<SessionHolder>; id?: RequestId } | undefined = call && { call };
    const done = () => {
      if (token) this.progress.delete(token);
      if (sending?.id !== undefined) this.calls.delete(sending.id);
      if (this.otherRootsGiven && this.calls.size === 0) this.restoreRoots();
    };
    let sent: Promise<JsonObject>;
    this.sendingFor = sending;
    try {
      sent = this.client.request({ method, ...(params ? { params } : {}) } as never, ResultSchema, options) as Promise<JsonObject>;
    } catch (err) {
      sent = Promise.reject(err);
    } finally {
      this.sendingFor = undefined;
    }
    return sent.then(
      (result) => {
        done();
        trace?.end();
        if (call && !call.asked) this.hooks.asks?.completedQuietly(call.key);
        return result;
      },
      (err: unknown) => {
        done();
        trace?.end(err);
        throw err;
      },
    );
  }

  /** Interactive calls in flight on this session. */
  get callsInFlight(): number {
    return this.calls.size;
  }

  /**
   * Takes a server message before the SDK sees it (true: taken). Progress and logs: the v1 SDK
   * dispatches notifications a tick later than responses, so the last progress before a result
   * would find its handler already gone; read here, every notification is handed on in wire order.
   * Server requests but ping are answered from here (server-requests.ts), from initialize on,
   * routed by where they arrived: the HTTP transport says which call's stream carried them.
   */
  private receive(message: JSONRPCMessage, extra: MessageExtraInfo | undefined): boolean {
    const m = message as { method?: string; id?: RequestId; params?: JsonObject };
    if (m.method === undefined) return false;
    const related = (extra as { relatedRequestId?: RequestId } | undefined)?.relatedRequestId;
    const provenance: Provenance = related === undefined ? NO_PROVENANCE : { kind: 'call', requestId: related };
    if (m.id !== undefined) {
      if (m.method === 'ping') return false;
      const req = message as JSONRPCRequest;
      this.answering.answer(req, (withdrawn) => this.onRequest(req, provenance, withdrawn));
      return true;
    }
    if (m.method === 'notifications/progress') {
      const token = String(m.params?.['progressToken']);
      const handler = this.progress.get(token);
      if (!m.params) return false;
      if (!handler) {
        // Ours but its call is over (a late report), or a token nobody gave: no request carries it.
        this.hooks.notificationDropped?.(m.method, token.startsWith(PROGRESS_TOKEN_PREFIX) ? 'call_ended' : 'outside_call');
        return true;
      }
      const { progressToken: _token, ...rest } = m.params;
      handler(rest);
      return true;
    }
    if (m.method === 'notifications/message') {
      const holder = routeNotification(provenance, this.calls);
      if (holder && m.params) holder.onLog(m.params);
      else {
        this.log.debug('legacy log message for no call', { level: m.params?.['level'], callsInFlight: this.calls.size });
        this.hooks.notificationDropped?.(m.method, this.calls.size === 0 ? 'outside_call' : 'unattributed');
      }
      return true;
    }
    return false;
  }

  /**
   * Tells the server its roots changed back to the ones the session serves (it declared
   * roots.listChanged): a server that keeps the roots a caller gave during a call asks again, and
   * is answered outside calls with the session's own, before the next caller reads them.
   */
  private restoreRoots(): void {
    this.otherRootsGiven = false;
    if (this.closed) return;
    this.log.debug('a call gave the server other roots than the session serves: telling it the roots changed');
    this.notify('notifications/roots/list_changed').catch((err: Error) =>
      this.log.warn('could not tell the legacy server that its roots changed back', { error: err.message }),
    );
  }

  async notify(method: string, params?: JsonObject): Promise<void> {
    await this.client.notification({ method, ...(params ? { params } : {}) } as never);
  }

  async close(reason: string): Promise<void> {
    if (this.closed) return;
    this.closeReason ||= reason;
    const t = this.transport as Transport & { terminateSession?: () => Promise<void> };
    // Ending an HTTP session politely (DELETE) is best effort: the server may already be gone.
    await t.terminateSession?.().catch(() => {});
    await this.client.close().catch(() => {});
    this.onClose();
  }

  private onRequest(req: JSONRPCRequest, provenance: Provenance, withdrawn: AbortSignal): Promise<JsonObject> {
    const request: ServerRequest = { id: req.id, method: req.method, params: req.params as JsonObject | undefined };
    const route = routeServerRequest(req.method, provenance, this.calls, this.holder !== undefined);
    const { tied, untied, exclusive } = route.learn;
    if (tied.length + untied.length + exclusive.length > 0) this.hooks.asks?.learn(route.learn);
    switch (route.kind) {
      case 'holder': {
        route.call.asked = true;
        const answer = route.call.holder.onServerRequest(request, withdrawn);
        if (req.method !== 'roots/list' || this.hooks.servedRoots === undefined) return answer;
        const served = this.hooks.servedRoots;
        return answer.then((result) => {
          if (answerLeavesOtherRoots(result, served)) this.otherRootsGiven = true;
          return result;
        });
      }
      case 'local':
        return this.holder ? this.holder.onServerRequest(request, withdrawn) : this.hooks.answerLocally(request, this);
      case 'refuse':
        this.hooks.unattributed?.(req.method);
        this.log.warn('refused a legacy request that cannot be attributed to one call', { method: req.method, candidates: route.candidates });
        return Promise.reject(new McpError(JSONRPC.INTERNAL_ERROR, route.message));
    }
  }

  /**
   * A broken HTTP stream can strand a pending request forever: the SDK only resumes streams that
   * sent a priming event, and gives up silently after its retries. On such an error, ping the
   * server; if it does not answer, the session is dead and closing it fails every pending call.
   */
  private onTransportError(err: Error): void {
    this.log.debug('legacy transport error', { error: err.message });
    if (this.closed || this.probing || !(err instanceof StreamGoneError)) return;
    this.probing = true;
    this.client
      .ping({ timeout: LIVENESS_TIMEOUT_MS })
      .then(
        () => undefined,
        (pingErr: Error) => this.close(`the legacy server stopped responding (${err.message}; ping: ${pingErr.message})`),
      )
      .finally(() => {
        this.probing = false;
      });
  }

  private onClose(): void {
    if (this.closed) return;
    this.closed = true;
    this.closeReason ||= 'the legacy server closed the connection';
    this.answering.withdrawAll();
    this.log.info('legacy session closed', { reason: this.closeReason });
    this.hooks.onClosed(this);
  }
}
