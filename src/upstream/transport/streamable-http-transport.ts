// The legacy Streamable HTTP client transport (2025-03-26 to 2025-11-25) for the v1 SDK `Client`,
// on node:http instead of fetch. Wire behaviour follows the v1 SDK's StreamableHTTPClientTransport:
// POST per message with the session and protocol-version headers, JSON or SSE answers, the GET
// stream opened after `notifications/initialized`, resumption with Last-Event-ID (and the server's
// `retry`), DELETE to end the session. One difference: a POST stream that ends before answering and
// cannot be resumed answers its requests with an error at once, where the SDK leaves them pending.
// Another: a message on a POST's response stream is delivered with that request's id (extra
// `relatedRequestId`), so a session carrying many calls knows whose it is; the GET stream's have none.
import type http from 'node:http';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { asMessage, isRequest, parseMessage } from './jsonrpc-message.js';
import { mediaTypeEssence } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import { type HttpAgents, HttpExchanger, readText, readTextPrefix } from './http-exchange.js';
import { describeHttpRejection, isHtml } from './http-rejection.js';
import { readSseStream, type SseReadOptions, type SseStreamEnd, type SseStreamOwner } from './sse-stream.js';
import { errorBody, LEGACY } from '../../protocol/errors.js';
import { classifyNetworkError, StreamGoneError } from './stream-gone.js';
import { traceHeaders } from '../trace-context.js';
import type { UpstreamTarget } from '../../config/types.js';
import { headerSourceFor } from '../client-credentials.js';
import type { UpstreamResources } from '../resources.js';

interface StreamOptions extends SseReadOptions {
  /** A resumed request's id: its replayed response is delivered under it. */
  replayId?: RequestId;
  /** Requests this stream owes answers to (a POST stream); the GET stream owes none. */
  owed?: Set<RequestId>;
  /** The request whose response stream this is: what its server requests and notifications relate to. */
  related?: RequestId;
}

/** How much of a refusing answer's body is read: enough to tell an HTML page and quote a line. */
const REJECTION_BODY_BYTES = 4096;

/** An HTTP answer of the legacy server's that is not a usable MCP answer. */
export class StreamableHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(`Streamable HTTP error: ${message}`);
    this.name = 'StreamableHttpError';
  }
}

export interface ReconnectionOptions {
  initialDelayMs: number;
  maxDelayMs: number;
  growFactor: number;
  maxRetries: number;
}

/** A dead upstream should fail the session quickly; the pool replaces it. */
export const DEFAULT_RECONNECTION: ReconnectionOptions = { initialDelayMs: 500, maxDelayMs: 5000, growFactor: 1.5, maxRetries: 2 };

/**
 * The transport for a legacy Streamable HTTP upstream: one legacy session (Mcp-Session-Id) per
 * pooled connection. Nothing from the front request (headers, credentials) is passed on: the proxy
 * is its own client upstream, with the headers the configuration names for this upstream and, with
 * `auth`, its own OAuth token.
 */
export function createHttpTransport(target: Extract<UpstreamTarget, { kind: 'http' }>, resources: UpstreamResources): StreamableHttpTransport {
  return new StreamableHttpTransport(target.url, resources.agents, headerSourceFor(target, resources.tokens));
}

/** The request whose stream carried a message, if any. */
export type StreamProvenance = MessageExtraInfo & { relatedRequestId?: RequestId };

/** The standalone GET stream being opened: resolved once the server has answered it (or failed to). */
interface Opening {
  readonly answered: Promise<void>;
  open(): void;
  isOpen: boolean;
}

function opening(): Opening {
  let open = () => {};
  const answered = new Promise<void>((resolve) => (open = resolve));
  const o: Opening = {
    answered,
    isOpen: false,
    open: () => {
      o.isOpen = true;
      open();
    },
  };
  return o;
}

export class StreamableHttpTransport implements Transport {
  onmessage?: (message: JSONRPCMessage, extra?: StreamProvenance) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  sessionId?: string;
  protocolVersion?: string;
  private readonly http: HttpExchanger;
  private started = false;
  private closed = false;
  private retryMs: number | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();
  /** For each request still owed an answer, the set of the stream that owes it. */
  private readonly owedOn = new Map<RequestId, Set<RequestId>>();
  /** The open response of each POST stream (or its resumption), by the set of requests it owes answers to. */
  private readonly owingStreams = new Map<Set<RequestId>, http.IncomingMessage>();
  /** Streams this transport closed itself because nothing is owed on them any more: their end is no error. */
  private readonly dropped = new WeakSet<Set<RequestId>>();
  /**
   * The standalone GET stream while it is being opened. A v1 SDK server sends a request not tied to a call
   * (`elicitInput()` without `relatedRequestId`) on that stream and drops it silently if the stream is not open
   * yet, so an interactive call POSTed before the server answered the GET could lose its question.
   */
  private standaloneOpening: Opening | undefined;

  /** `agents`: the proxy instance's connection pools. */
  constructor(
    private readonly url: URL,
    agents: HttpAgents,
    private readonly headers: () => Promise<Record<string, string>> = async () => ({}), // per request: a token may be refreshed
    private readonly reconnection: ReconnectionOptions = DEFAULT_RECONNECTION,
  ) {
    this.http = new HttpExchanger(agents);
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('StreamableHttpTransport already started');
    this.started = true;
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  async send(message: JSONRPCMessage | JSONRPCMessage[], options?: TransportSendOptions): Promise<void> {
    if (this.closed) throw new Error('the transport to the legacy server is closed');
    if (options?.resumptionToken) {
      const replayId = isRequest(message) ? message.id : undefined;
      const related = replayId === undefined ? {} : { related: replayId };
      this.openStream({ lastEventId: options.resumptionToken, onresumptiontoken: options.onresumptiontoken, replayId, ...related }).catch((err: Error) =>
        this.onerror?.(err),
      );
      return;
    }
    this.forgetCancelled(message);
    try {
      await this.post(message, options?.onresumptiontoken);
    } catch (err) {
      this.onerror?.(classifyNetworkError(err as Error));
      throw err;
    }
  }

  /**
   * While the standalone GET stream is being opened: resolves once the server has answered it (its
   * response head, however long a loaded server takes; 405, no such stream, at once). Undefined once
   * it has. Interactive calls wait for it (see LegacySession.request); nothing else needs to.
   */
  standaloneReady(): Promise<void> | undefined {
    const o = this.standaloneOpening;
    return o && !o.isOpen ? o.answered : undefined;
  }

  /** Ends the legacy session politely (DELETE); a server that does not allow it answers 405. */
  async terminateSession(): Promise<void> {
    if (!this.sessionId || this.closed) return;
    const response = await this.http.send(this.url, 'DELETE', await this.baseHeaders());
    response.resume();
    const status = response.statusCode ?? 0;
    if ((status < 200 || status >= 300) && status !== 405)
      throw new StreamableHttpError(status, `Failed to terminate session: ${response.statusMessage ?? ''}`);
    this.sessionId = undefined;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.owedOn.clear();
    this.owingStreams.clear();
    this.standaloneOpening?.open();
    this.http.close();
    this.onclose?.();
  }

  private async post(message: JSONRPCMessage | JSONRPCMessage[], onresumptiontoken?: (token: string) => void): Promise<void> {
    const headers = {
      ...(await this.baseHeaders()),
      ...traceHeaders(message),
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const response = await this.http.send(this.url, 'POST', headers, JSON.stringify(message));
    const sessionId = response.headers['mcp-session-id'];
    if (typeof sessionId === 'string' && sessionId) this.sessionId = sessionId;
    const status = response.statusCode ?? 0;
    if (status < 200 || status >= 300) {
      throw new StreamableHttpError(status, await this.rejection(response, status));
    }
    if (status === 202) {
      response.resume();
      if (!Array.isArray(message) && 'method' in message && message.method === 'notifications/initialized') this.openStandalone();
      return;
    }
    const owed = new Set((Array.isArray(message) ? message : [message]).filter(isRequest).map((m) => m.id));
    if (owed.size === 0) {
      response.resume();
      return;
    }
    const type = mediaTypeEssence(response.headers['content-type']);
    if (type === 'text/event-stream') {
      for (const id of owed) this.owedOn.set(id, owed);
      // The SDK posts one request at a time; a batch's stream could belong to any of its requests.
      const related = owed.size === 1 ? { related: owed.values().next().value as RequestId } : {};
      this.readStream(response, { onresumptiontoken, owed, ...related }, false);
    } else if (type === 'application/json') {
      const data = JSON.parse(await readText(response)) as unknown;
      for (const m of Array.isArray(data) ? data : [data]) this.onmessage?.(asMessage(m));
    } else if (isHtml(response.headers['content-type'], '')) {
      throw new StreamableHttpError(status, await this.rejection(response, status));
    } else {
      response.resume();
      throw new StreamableHttpError(-1, `Unexpected content type: ${response.headers['content-type'] ?? '(none)'}`);
    }
  }

  /** What a POST's answer that is not MCP says: its status and, for a wrong URL, the fix (never the page). */
  private async rejection(response: http.IncomingMessage, status: number): Promise<string> {
    const body = await readTextPrefix(response, REJECTION_BODY_BYTES).catch(() => '');
    const contentType = response.headers['content-type'];
    return describeHttpRejection({ url: this.url, status, statusMessage: response.statusMessage, contentType, body, inSession: this.sessionId !== undefined });
  }

  /**
   * Opens the standalone GET stream after initialize; interactive calls wait until the server has
   * answered it. (A stream closed later is reopened by `reconnect` without holding calls: a polling
   * server would otherwise stall every call for its retry interval.)
   */
  private openStandalone(): void {
    const latch = opening();
    this.standaloneOpening = latch;
    this.openStream({}).then(
      () => latch.open(),
      (err: Error) => {
        this.onerror?.(err);
        latch.open();
      },
    );
  }

  /** The GET stream: server-initiated messages, or the rest of a POST stream being resumed. */
  private async openStream(opts: StreamOptions): Promise<void> {
    if (this.closed) return;
    const headers: Record<string, string> = { ...(await this.baseHeaders()), accept: 'text/event-stream' };
    if (opts.lastEventId) headers['last-event-id'] = opts.lastEventId;
    const response = await this.http.send(this.url, 'GET', headers);
    const status = response.statusCode ?? 0;
    if (status === 405) {
      response.resume(); // the server offers no GET stream
      return;
    }
    if (status < 200 || status >= 300) {
      response.resume();
      throw new StreamableHttpError(status, `Failed to open SSE stream: ${response.statusMessage ?? status}`);
    }
    this.readStream(response, opts, true);
  }

  private readStream(response: http.IncomingMessage, opts: StreamOptions, reconnectable: boolean): void {
    if (opts.owed) {
      // A resumption that connected after its requests were cancelled owes nothing.
      if (this.dropped.has(opts.owed)) return void response.destroy();
      this.owingStreams.set(opts.owed, response);
    }
    readSseStream(response, this.streams, opts, reconnectable);
  }

  /** What the SSE streams of this transport report to it (one object for all of them). */
  private readonly streams: SseStreamOwner<StreamOptions> = {
    deliver: (data, opts) => this.deliver(data, opts),
    retry: (ms) => {
      this.retryMs = ms;
    },
    closed: (end) => this.streamClosed(end),
  };

  private streamClosed({ opts, lastEventId, primed, complete, reconnectable }: SseStreamEnd<StreamOptions>): void {
    if (opts.owed) this.owingStreams.delete(opts.owed);
    if (this.closed || (opts.owed && this.dropped.has(opts.owed))) return;
    if (!complete) this.onerror?.(new StreamGoneError('SSE stream disconnected: the connection to the legacy server was lost'));
    const owesAnswers = opts.owed === undefined || opts.owed.size > 0;
    if ((reconnectable || primed) && owesAnswers) {
      this.reconnect({ ...opts, lastEventId }, 0);
    } else if (opts.owed && opts.owed.size > 0) {
      this.failOwed(opts.owed);
    }
  }

  private deliver(data: string, opts: StreamOptions): void {
    const message = parseMessage(data, this.onerror);
    if (message === undefined) return;
    if (('result' in message || 'error' in message) && message.id !== undefined) {
      opts.owed?.delete(message.id);
      this.owedOn.delete(message.id);
      if (opts.replayId !== undefined) message.id = opts.replayId;
    }
    this.onmessage?.(message, opts.related === undefined ? undefined : { relatedRequestId: opts.related });
  }

  /**
   * A POST stream ended before answering and cannot be resumed: its requests fail now, not at their
   * timeout, as the connection closing under them (what happened, whatever the server meant): the
   * proxy's own error, with its reason, never one the server seems to have sent.
   */
  private failOwed(owed: Set<RequestId>): void {
    for (const id of owed) {
      this.owedOn.delete(id);
      this.onmessage?.(errorBody(id, LEGACY.CONNECTION_CLOSED, 'the legacy server closed the response stream without answering') as JSONRPCMessage);
    }
    owed.clear();
  }

  /**
   * A request the Client gave up on (timeout, cancellation, an interaction that ended unanswered)
   * is owed nothing any more. A stream that owed nothing else is closed here: a legacy server sends
   * no response for a request it was told to cancel (the v1 SDK's servers never do), so its stream,
   * and the connection under it, would otherwise stay open for as long as the session lives.
   */
  private forgetCancelled(message: JSONRPCMessage | JSONRPCMessage[]): void {
    for (const m of Array.isArray(message) ? message : [message]) {
      if (!('method' in m) || m.method !== 'notifications/cancelled') continue;
      const id = (m.params as { requestId?: RequestId } | undefined)?.requestId;
      if (id === undefined) continue;
      const owed = this.owedOn.get(id);
      this.owedOn.delete(id);
      if (!owed) continue;
      owed.delete(id);
      if (owed.size === 0) this.dropStream(owed);
    }
  }

  /** Closes the stream that owed `owed` (now empty), without reconnecting or reporting an error. */
  private dropStream(owed: Set<RequestId>): void {
    this.dropped.add(owed);
    const response = this.owingStreams.get(owed);
    this.owingStreams.delete(owed);
    response?.destroy();
  }

  private reconnect(opts: StreamOptions, attempt: number): void {
    if (this.closed || (opts.owed && this.dropped.has(opts.owed))) return;
    if (attempt >= this.reconnection.maxRetries) {
      this.onerror?.(new StreamGoneError(`Maximum reconnection attempts (${this.reconnection.maxRetries}) exceeded.`));
      if (opts.owed) this.failOwed(opts.owed);
      return;
    }
    const { initialDelayMs, growFactor, maxDelayMs } = this.reconnection;
    const delay = this.retryMs ?? Math.min(initialDelayMs * growFactor ** attempt, maxDelayMs);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.openStream(opts).catch((err: Error) => {
        this.onerror?.(new StreamGoneError(`Failed to reconnect SSE stream: ${err.message}`, { cause: err }));
        this.reconnect(opts, attempt + 1);
      });
    }, delay);
    this.timers.add(timer);
  }

  private async baseHeaders(): Promise<Record<string, string>> {
    const h: Record<string, string> = {};
    if (this.sessionId) h['mcp-session-id'] = this.sessionId;
    if (this.protocolVersion) h['mcp-protocol-version'] = this.protocolVersion;
    return { ...h, ...(await this.headers()) };
  }
}
