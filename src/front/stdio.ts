// The 2026-07-28 stdio listener, for desktop clients that launch the proxy as their server. The
// official serveStdio does the era probe, envelope checks, cancellation and listen subscriptions;
// this file only sits on the wire in front of it: the first message decides the era (a legacy
// `initialize` gets the transparent legacy path), malformed retries are refused before the SDK
// can mistake them, listen subscriptions hold legacy resource subscriptions open, and a listen for
// task ids hears of those tasks (task-listen.ts).
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { type McpServer, type Transport, type JSONRPCMessage, SUBSCRIPTION_ID_META_KEY } from '@modelcontextprotocol/server';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { LegacyClients } from '../config/types.js';
import { errorBody, ProxyError } from '../protocol/errors.js';
import { proxyErrorBody } from '../protocol/encode-error.js';
import type { JsonObject } from '../protocol/json.js';
import { MAX_JSON_DEPTH, TOO_DEEP, valueNestingExceeds } from '../protocol/json-body.js';
import { resourceSubscriptionUris } from '../protocol/params.js';
import { invalidRetryParams } from '../protocol/retry-params.js';
import { LegacyPump } from '../relay/legacy-pump.js';
import type { StdioRequests } from '../telemetry/front-telemetry.js';
import { createChangeRelay } from './changes.js';
import { openTaskSubscription, requestedTaskIds, type TaskSubscription } from './task-listen.js';
import { createFrontServer, type FrontDeps } from './server-factory.js';

export interface StdioFront {
  /** Resolves when the client closed the connection. */
  closed: Promise<void>;
  close(): Promise<void>;
}

type Message = { id?: RequestId; method?: string; params?: Record<string, unknown> };

const UNTRACKED: StdioRequests = { run: (_m, deliver) => deliver(), answered: () => {}, recordOf: () => undefined };

/** `requests`: the access log, metrics and spans of the 2026-07-28 requests (the legacy path has none). */
export async function startStdioFront(deps: FrontDeps, legacyClients: LegacyClients, requests: StdioRequests = UNTRACKED): Promise<StdioFront> {
  const { log, upstream } = deps;
  const inner = new StdioServerTransport();
  let era: 'undecided' | 'modern' | 'legacy' = 'undecided';
  let pump: LegacyPump | undefined;
  let modern: McpServer | undefined;
  const listens = new Map<RequestId, string[]>();
  const taskListens = new Map<unknown, TaskSubscription>();
  let resolveClosed!: () => void;
  const closed = new Promise<void>((r) => (resolveClosed = r));

  // What serveStdio sees as its wire: the real stdio transport, with this file's routing in front.
  const wire: Transport = {
    start: () => inner.start(),
    send: (message) => {
      requests.answered(message);
      const subscription = taskListens.get(subscriptionOf(message as Message));
      return subscription ? sendFor(subscription, subscription.fromFront(message as JsonObject)) : inner.send(message);
    },
    close: () => inner.close(),
  };
  inner.onerror = (err) => wire.onerror?.(err);
  inner.onclose = () => {
    wire.onclose?.();
    stopWatching();
    for (const uris of listens.values()) for (const uri of uris) void upstream.unsubscribe(uri);
    void pump?.close('the client closed stdin');
    resolveClosed();
  };
  inner.onmessage = (message) => void route(message as Message);

  async function route(message: Message): Promise<void> {
    if (era === 'undecided') era = message.method === 'initialize' && legacyClients === 'pass' && !hasEnvelope(message) ? 'legacy' : 'modern';
    if (valueNestingExceeds(message, MAX_JSON_DEPTH)) {
      // Deep enough to overflow the stack of code that walks it (as on HTTP: front/body-reader.ts).
      if (message.id !== undefined) await inner.send(errorBody(message.id, TOO_DEEP.code, TOO_DEEP.message) as JSONRPCMessage);
      return;
    }
    if (era === 'legacy') return relayLegacy(message);
    const invalid = invalidRetryParams(message);
    if (invalid && message.id !== undefined) {
      await requests.run(message, () => wire.send(errorBody(message.id, invalid.code, invalid.message) as JSONRPCMessage));
      return;
    }
    if (message.method === 'subscriptions/listen' && message.id !== undefined) {
      await holdSubscriptions(message.id, message.params);
      const tasks = requestedTaskIds(message.params).length > 0 && (await openTaskSubscription(message, deps.principal, deps.bridge.taskAccess()));
      if (tasks) taskListens.set(message.id, tasks);
    }
    if (message.method === 'notifications/cancelled') {
      releaseSubscriptions(message.params?.['requestId'] as RequestId);
      taskListens.get(message.params?.['requestId'])?.cancel();
      taskListens.delete(message.params?.['requestId']);
    }
    requests.run(message, () => wire.onmessage?.(message as JSONRPCMessage));
  }

  async function relayLegacy(message: Message): Promise<void> {
    if (!pump) {
      log.info('legacy client on stdio: relaying it to its own legacy session');
      try {
        const opened = new LegacyPump(upstream.openPassThrough(), (m) => inner.send(m as JSONRPCMessage), log);
        opened.onclose = () => void inner.close();
        await opened.start();
        pump = opened;
      } catch (err) {
        // No session for it (every one allowed is in use, or the server cannot be reached): the
        // client hears why, and may send its initialize again.
        log.warn('legacy path: no legacy session for the client', { error: (err as Error).message });
        const refusal =
          err instanceof ProxyError
            ? err
            : new ProxyError('upstream_unavailable', 'upstream_unreachable', `cannot reach the legacy server: ${(err as Error).message}`);
        if (message.id !== undefined) await inner.send(proxyErrorBody(message.id, refusal) as JSONRPCMessage);
        return;
      }
    }
    await pump.fromClient(message as never);
  }

  async function holdSubscriptions(id: RequestId, params: Record<string, unknown> | undefined): Promise<void> {
    const uris = resourceSubscriptionUris(params);
    const held: string[] = [];
    for (const uri of uris) {
      await upstream.subscribe(uri).then(
        () => held.push(uri),
        (err: Error) => log.warn('legacy resources/subscribe failed', { uri, error: err.message }),
      );
    }
    if (held.length) listens.set(id, held);
  }

  function releaseSubscriptions(id: RequestId | undefined): void {
    const held = id === undefined ? undefined : listens.get(id);
    if (!held) return;
    listens.delete(id!);
    for (const uri of held) void upstream.unsubscribe(uri);
  }

  async function sendFor(subscription: TaskSubscription, messages: JsonObject[]): Promise<void> {
    if (subscription.over) taskListens.delete(subscription.id);
    for (const m of messages) await inner.send(m as JSONRPCMessage);
  }
  /** A notification stdout did not take: counted and warned about, as any the proxy cannot deliver. */
  const undelivered = (method: string) => (err: unknown) =>
    upstream.notificationDropped(method, 'send_failed', err instanceof Error ? err.message : String(err));
  const stopWatching = deps.bridge.taskAccess().watch((view) => {
    for (const subscription of taskListens.values())
      void sendFor(subscription, subscription.taskChanged(view)).catch(undelivered('notifications/tasks/status'));
  });

  // Change notifications go out through the pinned modern instance: serveStdio routes what it
  // emits onto the open listen subscriptions, stamped and filtered.
  const notify = (method: string, params?: JsonObject) =>
    void modern?.server.notification({ method, ...(params ? { params } : {}) } as never).catch(undelivered(method));
  const stopRelay = upstream.onChange(
    createChangeRelay({
      toolsChanged: () => notify('notifications/tools/list_changed'),
      promptsChanged: () => notify('notifications/prompts/list_changed'),
      resourcesChanged: () => notify('notifications/resources/list_changed'),
      resourceUpdated: (uri) => notify('notifications/resources/updated', { uri }),
    }),
  );

  const handle = serveStdio(
    async (ctx) => {
      const server = createFrontServer(await upstream.describe(), { ...deps, recordOf: (c) => requests.recordOf(c.mcpReq.id) });
      if (ctx.era === 'modern') modern = server;
      return server;
    },
    { legacy: 'reject', transport: wire, onerror: (err) => log.debug('stdio front rejected a message', { error: err.message }) },
  );

  return {
    closed,
    async close() {
      stopRelay();
      stopWatching();
      await pump?.close('the proxy is shutting down');
      await handle.close();
    },
  };
}

/** The listen a message of the front belongs to: its subscription id (notifications), or its id (the listen's result). */
function subscriptionOf(message: Message): unknown {
  const meta = message.params?.['_meta'];
  if (typeof meta === 'object' && meta !== null && SUBSCRIPTION_ID_META_KEY in meta) return (meta as Record<string, unknown>)[SUBSCRIPTION_ID_META_KEY];
  return message.method === undefined ? message.id : undefined;
}

function hasEnvelope(message: Message): boolean {
  const meta = message.params?.['_meta'];
  return typeof meta === 'object' && meta !== null && 'io.modelcontextprotocol/protocolVersion' in meta;
}
