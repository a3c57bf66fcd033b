// The reverse bridge: one 2025-era client session in front of a 2026-07-28 server. The session
// answers initialize from the server's server/discover and keeps what the client declared; each of
// its requests is a flow on the server (modern-flows.ts: stateless 2026-07-28 requests carrying that
// declaration, input_required rounds asked of the client on the request's own stream). Its
// list_changed notifications and resource subscriptions are one subscriptions/listen stream on the
// server (session-listen.ts), whose changes reach the client on its GET stream.
import { JSONRPC } from '../protocol/errors.js';
import { isJsonObject, type JsonObject, type RequestId } from '../protocol/json.js';
import type { HeaderSource } from '../upstream/client-credentials.js';
import type { RelayTarget } from './http-relay.js';
import { ExchangeFailure } from './modern-exchange.js';
import { listenableOf } from './listen-filter.js';
import { declarationOf, envelopeFor, initializeResultOf, type LegacyClientDeclaration } from './modern-envelope.js';
import { ModernFlows, type ModernFlowOptions } from './modern-flows.js';
import { SessionListen } from './session-listen.js';
import type { ClientSessionPump, SessionMessage, ToClient } from './client-session-pump.js';

/** The requests that go upstream as they are (with the envelope). */
const RELAYED: ReadonlySet<string> = new Set([
  'tools/list',
  'tools/call',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'completion/complete',
]);

/** Legacy methods the bridge does not carry yet, and why: answered -32601 naming the reason. */
const NOT_YET: Readonly<Record<string, string>> = {
  'tasks/get': 'tasks are not bridged to 2025-era clients yet',
  'tasks/result': 'tasks are not bridged to 2025-era clients yet',
  'tasks/list': 'tasks are not bridged to 2025-era clients yet',
  'tasks/cancel': 'tasks are not bridged to 2025-era clients yet',
};

export interface ReverseBridgeOptions extends ModernFlowOptions {
  url: URL;
  credentials: HeaderSource;
  /** The upstream's name, the serverInfo when the server gives none. */
  name: string;
  /** Listen streams open upstream across every session of the route (its status). */
  listens: { count: number };
}

export class ReverseBridgeSession implements ClientSessionPump {
  onclose?: () => void;
  private client: LegacyClientDeclaration | undefined;
  private logLevel: string | undefined;
  private closed = false;
  private readonly flows: ModernFlows;
  private readonly target: RelayTarget;
  /** The session's listen stream, from initialize on. */
  private listen: SessionListen | undefined;

  constructor(
    private readonly toClient: ToClient,
    private readonly options: ReverseBridgeOptions,
  ) {
    this.flows = new ModernFlows(toClient, options);
    this.target = { name: options.name, url: options.url, headers: options.credentials };
  }

  async start(): Promise<void> {}

  async fromClient(message: SessionMessage): Promise<void> {
    if (this.closed) return;
    const m = message as { id?: RequestId; method?: string; params?: unknown; result?: unknown; error?: unknown };
    if (m.method === undefined) {
      this.flows.answered(m);
      return;
    }
    if (m.id === undefined) {
      if (m.method === 'notifications/cancelled') this.flows.cancelled(m.params);
      return;
    }
    await this.request(m.id, m.method, isJsonObject(m.params) ? m.params : {});
  }

  async close(reason: string): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.options.log.info('legacy client session on a 2026-07-28 server ended', { reason });
    this.flows.close(reason);
    this.listen?.close();
    this.onclose?.();
  }

  private async request(id: RequestId, method: string, params: JsonObject): Promise<void> {
    if (method === 'initialize') return this.initialize(id, params);
    if (method === 'ping') return this.flows.reply(id, {});
    if (method === 'logging/setLevel') {
      if (typeof params['level'] === 'string') this.logLevel = params['level'];
      return this.flows.reply(id, {});
    }
    if (!this.client) return this.flows.fail(id, JSONRPC.INVALID_REQUEST, 'the session is not initialized');
    const notYet = NOT_YET[method];
    if (notYet !== undefined) return this.flows.fail(id, JSONRPC.METHOD_NOT_FOUND, `Method not found: ${notYet}`);
    if (method === 'resources/subscribe' || method === 'resources/unsubscribe') return this.subscription(id, method, params);
    if (!RELAYED.has(method)) return this.flows.fail(id, JSONRPC.METHOD_NOT_FOUND, `Method not found: ${method}`);
    // Each request runs on its own: the transport delivers the next message while it waits.
    void this.flows
      .run(id, method, params, this.target, { declaration: this.client, logLevel: this.logLevel })
      .catch((err: Error) => this.options.log.debug('reverse bridge: could not answer the legacy client', { error: err.message }));
  }

  private async initialize(id: RequestId, params: JsonObject): Promise<void> {
    const client = declarationOf(params);
    try {
      const discover = await this.flows.once(id, this.target, 'server/discover', {}, { declaration: client, logLevel: undefined });
      const result = discover['result'];
      // A session that ended while the server answered opens nothing.
      if (this.closed) return;
      if (isJsonObject(result)) {
        this.client = client;
        this.listen = new SessionListen({
          target: this.target,
          can: listenableOf(result['capabilities']),
          envelope: envelopeFor(client, undefined, undefined),
          toClient: this.toClient,
          streams: this.options.listens,
          log: this.options.log,
        });
        await this.flows.reply(id, initializeResultOf(result, client, this.options.name));
        return this.listen.start();
      }
      await this.flows.forwardError(id, discover);
    } catch (err) {
      await this.flows.failFor(
        id,
        err instanceof ExchangeFailure ? new ExchangeFailure(`cannot reach the 2026-07-28 server ${this.options.name}: ${err.message}`, err.reason) : err,
      );
    }
    // A session that could not be initialized serves nothing: it ends once its client has the error.
    await this.close('the 2026-07-28 server could not be discovered');
  }

  /** resources/subscribe and unsubscribe: the URIs the session's listen stream asks for. */
  private async subscription(id: RequestId, method: string, params: JsonObject): Promise<void> {
    const listen = this.listen;
    if (!listen?.can.resourceSubscriptions)
      return this.flows.fail(id, JSONRPC.METHOD_NOT_FOUND, `Method not found: the 2026-07-28 server ${this.options.name} has no resource subscriptions`);
    const uri = params['uri'];
    if (typeof uri !== 'string') return this.flows.fail(id, JSONRPC.INVALID_PARAMS, `${method} needs a uri`);
    // Answered once the stream listening for the new set is acknowledged; the transport delivers the next message meanwhile.
    void (method === 'resources/subscribe' ? listen.subscribe(uri) : listen.unsubscribe(uri))
      .then(
        () => this.flows.reply(id, {}),
        (err: unknown) => this.flows.failFor(id, err),
      )
      .catch(() => {});
  }
}
