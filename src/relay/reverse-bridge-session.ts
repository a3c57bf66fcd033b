// The reverse bridge: one 2025-era client session in front of a 2026-07-28 server. The session
// answers initialize from the server's server/discover and keeps what the client declared; each of
// its requests goes upstream as a stateless 2026-07-28 request carrying that declaration; an
// `input_required` answer becomes legacy server-to-client requests on the request's own stream,
// and their answers the retry's inputResponses, round after round. The client's cancellation, the
// end of the session or a failed answer ends the flow: the upstream stream closes and the
// questions still open are withdrawn from the client.
import { randomUUID } from 'node:crypto';
import { errorBody, JSONRPC } from '../protocol/errors.js';
import { isJsonObject, type JsonObject, type RequestId } from '../protocol/json.js';
import type { Logger } from '../telemetry/logger.js';
import type { HeaderSource } from '../upstream/client-credentials.js';
import { ExchangeFailure, exchange } from './modern-exchange.js';
import { declarationOf, envelopeFor, initializeResultOf, type LegacyClientDeclaration } from './modern-envelope.js';
import { legacyRequestOf, legacyResultOf, planRound } from './input-round.js';
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
  'resources/subscribe': 'resource subscriptions (2026-07-28 subscriptions/listen) are not bridged to 2025-era clients yet',
  'resources/unsubscribe': 'resource subscriptions (2026-07-28 subscriptions/listen) are not bridged to 2025-era clients yet',
  'tasks/get': 'tasks are not bridged to 2025-era clients yet',
  'tasks/result': 'tasks are not bridged to 2025-era clients yet',
  'tasks/list': 'tasks are not bridged to 2025-era clients yet',
  'tasks/cancel': 'tasks are not bridged to 2025-era clients yet',
};

export interface ReverseBridgeOptions {
  url: URL;
  credentials: HeaderSource;
  /** The upstream's name, the serverInfo when the server gives none. */
  name: string;
  /** Rounds of one request before it ends with an error. */
  maxRounds: number;
  /** Flows in flight across every session of the route (its status). */
  flows: { count: number };
  log: Logger;
}

interface Pending {
  resolve: (result: JsonObject) => void;
  reject: (err: Error) => void;
}

/** The client answered a question with an error: 2026-07-28 has no way to tell the server. */
class ClientRefused extends Error {}

export class ReverseBridgeSession implements ClientSessionPump {
  onclose?: () => void;
  private client: LegacyClientDeclaration | undefined;
  private logLevel: string | undefined;
  private closed = false;
  private seq = 0;
  /** The client's requests running upstream, by their id. */
  private readonly running = new Map<RequestId, AbortController>();
  /** Questions sent to the client and not answered yet, by the id the bridge gave them. */
  private readonly asked = new Map<string, Pending>();
  private readonly prefix = randomUUID().slice(0, 8);

  constructor(
    private readonly toClient: ToClient,
    private readonly options: ReverseBridgeOptions,
  ) {}

  async start(): Promise<void> {}

  async fromClient(message: SessionMessage): Promise<void> {
    if (this.closed) return;
    const m = message as { id?: RequestId; method?: string; params?: unknown; result?: unknown; error?: { message?: unknown } };
    if (m.method === undefined) return this.answered(m);
    if (m.id === undefined) return this.notified(m.method, m.params);
    await this.request(m.id, m.method, isJsonObject(m.params) ? m.params : {});
  }

  async close(reason: string): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.options.log.info('legacy client session on a 2026-07-28 server ended', { reason });
    for (const flow of this.running.values()) flow.abort(new Error(reason));
    for (const p of this.asked.values()) p.reject(new Error(reason));
    this.asked.clear();
    this.onclose?.();
  }

  private answered(m: { id?: RequestId; result?: unknown; error?: { message?: unknown } }): void {
    const pending = typeof m.id === 'string' ? this.asked.get(m.id) : undefined;
    if (!pending) return;
    this.asked.delete(m.id as string);
    if (isJsonObject(m.result)) pending.resolve(m.result);
    else pending.reject(new ClientRefused(`the client answered with an error: ${String(m.error?.message ?? 'no message')}`));
  }

  private notified(method: string, params: unknown): void {
    if (method !== 'notifications/cancelled' || !isJsonObject(params)) return;
    const id = params['requestId'];
    if (typeof id === 'string' || typeof id === 'number') this.running.get(id)?.abort(new Error('the client cancelled the request'));
  }

  private async request(id: RequestId, method: string, params: JsonObject): Promise<void> {
    if (method === 'initialize') return this.initialize(id, params);
    if (method === 'ping') return this.reply(id, {});
    if (method === 'logging/setLevel') {
      if (typeof params['level'] === 'string') this.logLevel = params['level'];
      return this.reply(id, {});
    }
    if (!this.client) return this.fail(id, JSONRPC.INVALID_REQUEST, 'the session is not initialized');
    const notYet = NOT_YET[method];
    if (notYet !== undefined) return this.fail(id, JSONRPC.METHOD_NOT_FOUND, `Method not found: ${notYet}`);
    if (!RELAYED.has(method)) return this.fail(id, JSONRPC.METHOD_NOT_FOUND, `Method not found: ${method}`);
    // Each request runs on its own: the transport delivers the next message while it waits.
    void this.flow(id, method, params).catch((err: Error) =>
      this.options.log.debug('reverse bridge: could not answer the legacy client', { error: err.message }),
    );
  }

  private async initialize(id: RequestId, params: JsonObject): Promise<void> {
    const client = declarationOf(params);
    const abort = new AbortController();
    this.running.set(id, abort);
    try {
      const discover = await this.upstream(`${this.prefix}-discover`, 'server/discover', {}, client, undefined, abort.signal, () => {});
      if (isJsonObject(discover['result'])) {
        this.client = client;
        return await this.reply(id, initializeResultOf(discover['result'], client, this.options.name));
      }
      await this.forwardError(id, discover);
    } catch (err) {
      await this.fail(id, JSONRPC.INTERNAL_ERROR, `cannot reach the 2026-07-28 server ${this.options.name}: ${(err as Error).message}`);
    } finally {
      this.running.delete(id);
    }
    // A session that could not be initialized serves nothing: it ends once its client has the error.
    await this.close('the 2026-07-28 server could not be discovered');
  }

  /** One request of the client, its rounds included, until a result, an error or cancellation. */
  private async flow(id: RequestId, method: string, params: JsonObject): Promise<void> {
    const abort = new AbortController();
    this.running.set(id, abort);
    this.options.flows.count++;
    const { _meta: meta, ...target } = params;
    const progressToken = isJsonObject(meta) ? meta['progressToken'] : undefined;
    const forward = (n: JsonObject) => void this.toClient(n, id).catch(() => {});
    let retry: JsonObject = {};
    try {
      for (let round = 0; round <= this.options.maxRounds; round++) {
        const answer = await this.upstream(`${this.prefix}-${++this.seq}`, method, { ...target, ...retry }, this.client!, progressToken, abort.signal, forward);
        const result = answer['result'];
        if (!isJsonObject(result)) return await this.forwardError(id, answer);
        if (result['resultType'] !== 'input_required') return await this.reply(id, legacyResultOf(result));
        if (round === this.options.maxRounds) break;
        const plan = planRound(result['inputRequests'], this.client!.capabilities);
        if (plan.kind === 'invalid') return await this.fail(id, JSONRPC.INTERNAL_ERROR, `the 2026-07-28 server's round cannot be served: ${plan.message}`);
        if (plan.kind === 'missing') return await this.fail(id, JSONRPC.MISSING_CLIENT_CAPABILITY, plan.message, { requiredCapabilities: plan.capabilities });
        // Every question of a round at once, on the request's stream: the person sees them together.
        const answers = await Promise.all(
          plan.questions.map(async (q) => [q.key, await this.ask(legacyRequestOf(q, randomUUID()), id, abort.signal)] as const),
        );
        const state = result['requestState'];
        retry = { inputResponses: { ...plan.refused, ...Object.fromEntries(answers) }, ...(typeof state === 'string' ? { requestState: state } : {}) };
      }
      await this.fail(id, JSONRPC.INTERNAL_ERROR, `the 2026-07-28 server asked more than ${this.options.maxRounds} rounds of questions`);
    } catch (err) {
      // A cancelled request gets no answer (the legacy rule); a closed session has no one to answer.
      if (abort.signal.aborted || this.closed) return;
      const reason = err instanceof ClientRefused || err instanceof ExchangeFailure ? err.message : `the request failed: ${(err as Error).message}`;
      await this.fail(id, JSONRPC.INTERNAL_ERROR, reason);
    } finally {
      abort.abort();
      this.running.delete(id);
      this.options.flows.count--;
    }
  }

  private upstream(
    upstreamId: string,
    method: string,
    params: JsonObject,
    client: LegacyClientDeclaration,
    progressToken: unknown,
    signal: AbortSignal,
    onNotification: (n: JsonObject) => void,
  ): Promise<JsonObject> {
    const request = { id: upstreamId, method, params: { ...params, _meta: envelopeFor(client, this.logLevel, progressToken) } };
    return exchange(this.options.url, this.options.credentials, request, signal, onNotification);
  }

  /** One question to the client on the stream of its request `related`; withdrawn if the flow ends first. */
  private ask(question: { method: string; params: JsonObject }, related: RequestId, signal: AbortSignal): Promise<JsonObject> {
    const id = `${this.prefix}-q${++this.seq}`;
    return new Promise<JsonObject>((resolve, reject) => {
      if (signal.aborted) return reject(new Error('withdrawn'));
      const withdraw = () => {
        if (!this.asked.delete(id)) return;
        void this.toClient(
          { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'the request was cancelled' } },
          related,
        ).catch(() => {});
        reject(new Error('withdrawn'));
      };
      signal.addEventListener('abort', withdraw, { once: true });
      this.asked.set(id, {
        resolve: (r) => {
          signal.removeEventListener('abort', withdraw);
          resolve(r);
        },
        reject: (e) => {
          signal.removeEventListener('abort', withdraw);
          reject(e);
        },
      });
      this.toClient({ jsonrpc: '2.0', id, ...question }, related).catch((err: Error) => {
        this.asked.delete(id);
        reject(err);
      });
    });
  }

  private reply(id: RequestId, result: JsonObject): Promise<void> {
    return this.toClient({ jsonrpc: '2.0', id, result }, id);
  }

  private fail(id: RequestId, code: number, message: string, data?: unknown): Promise<void> {
    return this.toClient(errorBody(id, code, message, data) as never, id);
  }

  /** The upstream's JSON-RPC error, passed on as it is (2026-07-28 and 2025-11-25 share the codes the client may see). */
  private forwardError(id: RequestId, answer: JsonObject): Promise<void> {
    const e = isJsonObject(answer['error']) ? answer['error'] : {};
    const code = typeof e['code'] === 'number' ? e['code'] : JSONRPC.INTERNAL_ERROR;
    const message = typeof e['message'] === 'string' ? e['message'] : 'the 2026-07-28 server answered with an error';
    return this.fail(id, code, message, e['data']);
  }
}
