// A 2025-era client's requests served by a 2026-07-28 server over HTTP, on that client's session:
// each goes upstream as a stateless 2026-07-28 request carrying what the client declared at
// initialize; an `input_required` answer becomes legacy server-to-client requests on the request's
// own stream, and their answers the retry's inputResponses, round after round. The client's
// cancellation, the end of the session or a failed answer ends the flow: the upstream stream
// closes and the questions still open are withdrawn from the client. Used by the reverse bridge
// (every request of the session) and by a legacy upstream's cutover (its cut-over items).
import { randomUUID } from 'node:crypto';
import { encodeError } from '../protocol/encode-error.js';
import { errorBody, JSONRPC, ProxyError, toWireError } from '../protocol/errors.js';
import { isJsonObject, type JsonObject, type RequestId } from '../protocol/json.js';
import type { Logger } from '../telemetry/logger.js';
import type { RelayTarget } from './http-relay.js';
import { ExchangeFailure, exchange } from './modern-exchange.js';
import { envelopeFor, type LegacyClientDeclaration } from './modern-envelope.js';
import { legacyRequestOf, legacyResultOf, planRound } from './input-round.js';
import type { ToClient } from './client-session-pump.js';

export interface ModernFlowOptions {
  /** Rounds of one request before it ends with an error. */
  maxRounds: number;
  /** Flows in flight across every session of the route (its status). */
  flows: { count: number };
  log: Logger;
}

/** What a session knows of its client when a request runs: its declaration and the level it set. */
export interface SessionClient {
  declaration: LegacyClientDeclaration;
  logLevel: string | undefined;
}

interface Pending {
  resolve: (result: JsonObject) => void;
  reject: (err: Error) => void;
}

/** The client answered a question with an error: 2026-07-28 has no way to tell the server. */
class ClientRefused extends Error {}

export class ModernFlows {
  private closed = false;
  private seq = 0;
  /** The client's requests running upstream, by their id. */
  private readonly running = new Map<RequestId, AbortController>();
  /** Questions sent to the client and not answered yet, by the id the flows gave them. */
  private readonly asked = new Map<string, Pending>();
  private readonly prefix = randomUUID().slice(0, 8);

  constructor(
    private readonly toClient: ToClient,
    private readonly options: ModernFlowOptions,
  ) {}

  /** Whether the client request `id` is running upstream. */
  isRunning(id: RequestId): boolean {
    return this.running.has(id);
  }

  /** A client's answer: true when it answers one of the flows' questions (and is taken). */
  answered(m: { id?: unknown; result?: unknown; error?: unknown }): boolean {
    const pending = typeof m.id === 'string' ? this.asked.get(m.id) : undefined;
    if (!pending) return false;
    this.asked.delete(m.id as string);
    if (isJsonObject(m.result)) pending.resolve(m.result);
    else {
      const message = isJsonObject(m.error) ? m.error['message'] : undefined;
      pending.reject(new ClientRefused(`the client answered with an error: ${String(message ?? 'no message')}`));
    }
    return true;
  }

  /** The client's notifications/cancelled: true when it names a running flow (which ends). */
  cancelled(params: unknown): boolean {
    const id = isJsonObject(params) ? params['requestId'] : undefined;
    const flow = typeof id === 'string' || typeof id === 'number' ? this.running.get(id) : undefined;
    flow?.abort(new Error('the client cancelled the request'));
    return flow !== undefined;
  }

  /** Ends every flow and withdraws every question: the session is over. */
  close(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    for (const flow of this.running.values()) flow.abort(new Error(reason));
    for (const p of this.asked.values()) p.reject(new Error(reason));
    this.asked.clear();
  }

  /**
   * One request outside a flow (the reverse bridge's server/discover), cancelled with the
   * session or by the client's cancellation of `id`.
   */
  async once(id: RequestId, target: RelayTarget, method: string, params: JsonObject, client: SessionClient): Promise<JsonObject> {
    const abort = new AbortController();
    this.running.set(id, abort);
    try {
      return await this.upstream(target, method, params, client, undefined, abort.signal, () => {});
    } finally {
      this.running.delete(id);
    }
  }

  /** One request of the client, its rounds included, until a result, an error or cancellation. */
  async run(id: RequestId, method: string, params: JsonObject, target: RelayTarget, client: SessionClient): Promise<void> {
    const abort = new AbortController();
    this.running.set(id, abort);
    this.options.flows.count++;
    const { _meta: meta, ...request } = params;
    const progressToken = isJsonObject(meta) ? meta['progressToken'] : undefined;
    const forward = (n: JsonObject) => void this.toClient(n, id).catch(() => {});
    let retry: JsonObject = {};
    try {
      for (let round = 0; round <= this.options.maxRounds; round++) {
        const answer = await this.upstream(target, method, { ...request, ...retry }, client, progressToken, abort.signal, forward);
        const result = answer['result'];
        if (!isJsonObject(result)) return await this.forwardError(id, answer);
        if (result['resultType'] !== 'input_required') return await this.reply(id, legacyResultOf(result));
        if (round === this.options.maxRounds) break;
        const plan = planRound(result['inputRequests'], client.declaration.capabilities);
        if (plan.kind === 'invalid')
          return await this.failWith(
            id,
            new ProxyError('upstream_failed', 'upstream_invalid', `the 2026-07-28 server's round cannot be served: ${plan.message}`),
          );
        if (plan.kind === 'missing')
          return await this.failWith(
            id,
            new ProxyError('capability_missing', 'capability_undeclared', plan.message, { requiredCapabilities: plan.capabilities }),
          );
        // Every question of a round at once, on the request's stream: the person sees them together.
        const answers = await Promise.all(
          plan.questions.map(async (q) => [q.key, await this.ask(legacyRequestOf(q, randomUUID()), id, abort.signal)] as const),
        );
        const state = result['requestState'];
        retry = { inputResponses: { ...plan.refused, ...Object.fromEntries(answers) }, ...(typeof state === 'string' ? { requestState: state } : {}) };
      }
      await this.failWith(
        id,
        new ProxyError('upstream_failed', 'upstream_invalid', `the 2026-07-28 server asked more than ${this.options.maxRounds} rounds of questions`),
      );
    } catch (err) {
      // A cancelled request gets no answer (the legacy rule); a closed session has no one to answer.
      if (abort.signal.aborted || this.closed) return;
      await this.failFor(id, err);
    } finally {
      abort.abort();
      this.running.delete(id);
      this.options.flows.count--;
    }
  }

  reply(id: RequestId, result: JsonObject): Promise<void> {
    return this.toClient({ jsonrpc: '2.0', id, result }, id);
  }

  /** An error of the protocol itself (no reason: the request is wrong as sent), or one passed on as the upstream wrote it. */
  fail(id: RequestId, code: number, message: string, data?: unknown): Promise<void> {
    return this.toClient(errorBody(id, code, message, data) as never, id);
  }

  /** An error the proxy makes: its reason and what the client should do in `data`. */
  failWith(id: RequestId, err: ProxyError): Promise<void> {
    const wire = toWireError(err);
    return this.fail(id, wire.code, wire.message, wire.data);
  }

  /**
   * Whatever ended a request: the upstream exchange's failure or the client's refusal by their
   * reasons, an unknown fault as the proxy's one encoder answers it (logged, nothing of it sent).
   */
  failFor(id: RequestId, err: unknown): Promise<void> {
    if (err instanceof ProxyError) return this.failWith(id, err);
    if (err instanceof ExchangeFailure)
      return this.failWith(
        id,
        err.reason === 'upstream_unreachable'
          ? new ProxyError('upstream_unavailable', 'upstream_unreachable', err.message)
          : new ProxyError('upstream_failed', err.reason, err.message),
      );
    if (err instanceof ClientRefused) return this.failWith(id, new ProxyError('upstream_failed', 'client_refused', err.message));
    const wire = encodeError(err, this.options.log);
    return this.fail(id, wire.code, wire.message, wire.data);
  }

  /** The upstream's JSON-RPC error, passed on as it is (2026-07-28 and 2025-11-25 share the codes the client may see). */
  forwardError(id: RequestId, answer: JsonObject): Promise<void> {
    const e = isJsonObject(answer['error']) ? answer['error'] : {};
    const code = typeof e['code'] === 'number' ? e['code'] : JSONRPC.INTERNAL_ERROR;
    const message = typeof e['message'] === 'string' ? e['message'] : 'the 2026-07-28 server answered with an error';
    return this.fail(id, code, message, e['data']);
  }

  private upstream(
    target: RelayTarget,
    method: string,
    params: JsonObject,
    client: SessionClient,
    progressToken: unknown,
    signal: AbortSignal,
    onNotification: (n: JsonObject) => void,
  ): Promise<JsonObject> {
    const request = {
      id: `${this.prefix}-${++this.seq}`,
      method,
      params: { ...params, _meta: envelopeFor(client.declaration, client.logLevel, progressToken) },
    };
    return exchange(target.url, target.headers, request, signal, onNotification);
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
}
