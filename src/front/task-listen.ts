// `notifications/tasks` on subscriptions/listen (the tasks extension): a listen whose filter asks
// for `taskIds` hears every change of those tasks' status, each notification carrying the task as
// tasks/get would answer it. The official front serves the listen stream and its four change kinds
// (it passes `taskIds` by, unhonored); a TaskSubscription adds the tasks' part to what it sends:
// - the acknowledgement (the subscription's first message) gains the task ids honored: those of
//   tasks this instance runs for the caller. A task of another instance is left out, so its client
//   knows to poll tasks/get;
// - right after it, each honored task's current state, then every change;
// - the subscription lasts while the front's does or any honored task still runs: the front's
//   closing result is held until both are over (a filter of task ids only is over for the front at
//   once).
// The class decides what goes out; each front (HTTP below, stdio.ts) only carries the messages.
import { type McpHttpHandler, SUBSCRIPTION_ID_META_KEY } from '@modelcontextprotocol/server';
import type { TaskAccess } from '../bridge/tasks/task-access.js';
import { declaresTasks, isTerminal, taskNotification, type TaskView } from '../bridge/tasks/task-wire.js';
import { declaredCapabilities } from '../protocol/capabilities.js';
import { isJsonObject, type JsonObject } from '../protocol/json.js';

/** An SSE comment while nothing else is sent, as the front's own keepalive, so proxies keep the stream. */
const KEEPALIVE_MS = 15_000;

type Fetcher = Pick<McpHttpHandler, 'fetch'>;
type ListenMessage = { id?: unknown; params?: Record<string, unknown> };

/**
 * The most task ids one listen is looked up for: each costs an id opened (and perhaps a store read),
 * so a listen naming thousands must not cost thousands. Ids past it are left out of the
 * acknowledgement, as an unknown id is, and their client polls tasks/get.
 */
export const MAX_LISTEN_TASK_IDS = 64;

/** The task ids a listen filter asks for (the first MAX_LISTEN_TASK_IDS distinct ones); none when the filter has none (or is malformed). */
export function requestedTaskIds(params: Record<string, unknown> | undefined): string[] {
  const notifications = params?.['notifications'];
  const ids = isJsonObject(notifications) ? notifications['taskIds'] : undefined;
  if (!Array.isArray(ids)) return [];
  const out = new Set<string>();
  for (const id of ids) {
    if (out.size >= MAX_LISTEN_TASK_IDS) break;
    if (typeof id === 'string') out.add(id);
  }
  return [...out];
}

/** The task part of one listen, or undefined when it watches no task of this instance (the front answers alone). */
export async function openTaskSubscription(message: ListenMessage, principal: string, tasks: TaskAccess): Promise<TaskSubscription | undefined> {
  if (!declaresTasks(declaredCapabilities(message.params))) return undefined;
  const watched = new Map<string, TaskView>();
  for (const id of requestedTaskIds(message.params)) {
    const view = await tasks.watchable(id, principal);
    if (view !== undefined) watched.set(id, view);
  }
  return watched.size === 0 ? undefined : new TaskSubscription(message.id, watched);
}

export class TaskSubscription {
  private acknowledged = false;
  private frontOver = false;
  /** The front's closing result, held until the tasks are over too. */
  private closing: JsonObject | undefined;
  private ended = false;

  constructor(
    readonly id: unknown,
    private readonly watched: Map<string, TaskView>,
  ) {}

  /** Over: its closing result went out (or nothing more may). */
  get over(): boolean {
    return this.ended;
  }

  /** A message the front sends on this subscription: what goes to the client instead (nothing: held). */
  fromFront(message: JsonObject): JsonObject[] {
    if (this.ended) return [];
    if (!this.acknowledged && message['method'] === 'notifications/subscriptions/acknowledged') {
      this.acknowledged = true;
      return [withTaskIds(message, [...this.watched.keys()]), ...[...this.watched.values()].map((v) => this.notification(v))];
    }
    if ('result' in message && message['id'] === this.id) {
      this.closing = message;
      this.frontOver = true;
      return this.endIfDone();
    }
    return [message];
  }

  /** The front's side ended without a closing result (its stream closed): the tasks' part goes on. */
  frontEnded(): JsonObject[] {
    this.frontOver = true;
    return this.endIfDone();
  }

  /** A task of this instance changed: its notification, if this subscription watches it. */
  taskChanged(view: TaskView): JsonObject[] {
    if (this.ended || !this.watched.has(view.taskId)) return [];
    this.watched.set(view.taskId, view);
    if (!this.acknowledged) return [];
    return [this.notification(view), ...this.endIfDone()];
  }

  /** The client went away: nothing more goes out. */
  cancel(): void {
    this.ended = true;
  }

  private endIfDone(): JsonObject[] {
    if (!this.frontOver || [...this.watched.values()].some((v) => !isTerminal(v.status))) return [];
    this.ended = true;
    return [
      this.closing ?? { jsonrpc: '2.0', id: this.id as never, result: { resultType: 'complete', _meta: { [SUBSCRIPTION_ID_META_KEY]: this.id as never } } },
    ];
  }

  private notification(view: TaskView): JsonObject {
    return { jsonrpc: '2.0', method: 'notifications/tasks', params: { ...taskNotification(view), _meta: { [SUBSCRIPTION_ID_META_KEY]: this.id as never } } };
  }
}

/** The HTTP front's fetch for one listen request, its SSE answer composed with the tasks' part. */
export async function withTaskNotifications(front: Fetcher, message: ListenMessage, principal: string, tasks: TaskAccess): Promise<Fetcher> {
  const subscription = await openTaskSubscription(message, principal, tasks);
  if (subscription === undefined) return front;
  return {
    fetch: async (request, options) => {
      const response = await front.fetch(request, options);
      if (!(response.headers.get('content-type') ?? '').includes('text/event-stream') || response.body === null) return response;
      return new Response(sseStream(response.body, subscription, tasks), { status: response.status, headers: response.headers });
    },
  };
}

function sseStream(front: ReadableStream<Uint8Array>, subscription: TaskSubscription, tasks: TaskAccess): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const reader = front.getReader();
  let stopWatching = () => {};
  let keepalive: NodeJS.Timeout | undefined;
  const stop = () => {
    stopWatching();
    clearInterval(keepalive);
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      const send = (messages: JsonObject[]) => {
        if (closed) return;
        for (const m of messages) controller.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify(m)}\n\n`));
        if (subscription.over) {
          closed = true;
          stop();
          controller.close();
        }
      };
      stopWatching = tasks.watch((view) => send(subscription.taskChanged(view)));
      keepalive = setInterval(() => closed || controller.enqueue(encoder.encode(': keepalive\n\n')), KEEPALIVE_MS);
      keepalive.unref();
      void (async () => {
        let buffer = '';
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
            const frame = buffer.slice(0, end + 2);
            buffer = buffer.slice(end + 2);
            const message = parseFrame(frame);
            // Comments (the front's keepalives) and anything unreadable pass as they came.
            if (message === undefined) closed || controller.enqueue(encoder.encode(frame));
            else send(subscription.fromFront(message));
          }
        }
        send(subscription.frontEnded());
      })().catch(() => send(subscription.frontEnded()));
    },
    cancel(reason) {
      subscription.cancel();
      stop();
      void reader.cancel(reason).catch(() => {});
    },
  });
}

/** The JSON-RPC message of one SSE frame (its `data:` lines); undefined for a comment or anything else. */
function parseFrame(text: string): JsonObject | undefined {
  const data = text
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trimStart())
    .join('\n');
  if (data === '') return undefined;
  try {
    const message: unknown = JSON.parse(data);
    return isJsonObject(message) ? message : undefined;
  } catch {
    return undefined;
  }
}

function withTaskIds(ack: JsonObject, taskIds: string[]): JsonObject {
  const params = isJsonObject(ack['params']) ? ack['params'] : {};
  const honored = isJsonObject(params['notifications']) ? params['notifications'] : {};
  return { ...ack, params: { ...params, notifications: { ...honored, taskIds } } };
}
