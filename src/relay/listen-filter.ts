// What a 2025-era session of the reverse bridge listens for on its 2026-07-28 server, and what
// reaches its client from that listen stream. The legacy session had list_changed notifications
// and resources/subscribe; 2026-07-28 has one `subscriptions/listen` request whose filter names
// both. Pure: the listen stream itself is session-listen.ts.
import { isJsonObject, type JsonObject } from '../protocol/json.js';

export const SUBSCRIPTION_ID_KEY = 'io.modelcontextprotocol/subscriptionId';

/** The change notifications a listen stream may carry, each the legacy notification of the same name. */
const CHANGES: ReadonlySet<string> = new Set([
  'notifications/tools/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/list_changed',
  'notifications/resources/updated',
]);

/** What the server's capabilities let a session listen for. */
export interface Listenable {
  toolsListChanged: boolean;
  promptsListChanged: boolean;
  resourcesListChanged: boolean;
  /** `resources.subscribe`: resource URIs may be listened for. */
  resourceSubscriptions: boolean;
}

/** Reads the server/discover capabilities. */
export function listenableOf(capabilities: unknown): Listenable {
  const caps = isJsonObject(capabilities) ? capabilities : {};
  const flag = (key: string, bit: string) => isJsonObject(caps[key]) && (caps[key] as JsonObject)[bit] === true;
  return {
    toolsListChanged: flag('tools', 'listChanged'),
    promptsListChanged: flag('prompts', 'listChanged'),
    resourcesListChanged: flag('resources', 'listChanged'),
    resourceSubscriptions: flag('resources', 'subscribe'),
  };
}

/**
 * The `notifications` filter of the session's listen request: every list the server announces
 * changes of, and the URIs the client subscribed to; undefined when there is nothing to listen for
 * (no stream is kept open then).
 */
export function listenFilterOf(can: Listenable, uris: ReadonlySet<string>): JsonObject | undefined {
  const filter: JsonObject = {};
  if (can.toolsListChanged) filter['toolsListChanged'] = true;
  if (can.promptsListChanged) filter['promptsListChanged'] = true;
  if (can.resourcesListChanged) filter['resourcesListChanged'] = true;
  if (can.resourceSubscriptions && uris.size > 0) filter['resourceSubscriptions'] = [...uris];
  return Object.keys(filter).length === 0 ? undefined : filter;
}

/** What one message on the listen stream `subscriptionId` is to the session. */
export type ListenEvent = { kind: 'acknowledged'; honored: JsonObject } | { kind: 'change'; notification: JsonObject } | { kind: 'other' };

/**
 * A message of the listen stream: its acknowledgement, a change to hand the client as the legacy
 * notification (the subscription id taken out of its `_meta`), or anything else (another
 * subscription's, an unknown method), which is dropped.
 */
export function listenEventOf(message: JsonObject, subscriptionId: string): ListenEvent {
  const params = isJsonObject(message['params']) ? message['params'] : {};
  const { [SUBSCRIPTION_ID_KEY]: sub, ...meta } = isJsonObject(params['_meta']) ? params['_meta'] : {};
  if (sub !== subscriptionId) return { kind: 'other' };
  const method = message['method'];
  if (method === 'notifications/subscriptions/acknowledged')
    return { kind: 'acknowledged', honored: isJsonObject(params['notifications']) ? params['notifications'] : {} };
  if (typeof method !== 'string' || !CHANGES.has(method)) return { kind: 'other' };
  if (method === 'notifications/resources/updated' && typeof params['uri'] !== 'string') return { kind: 'other' };
  const { _meta: _, ...rest } = params;
  const legacy = Object.keys(meta).length === 0 ? rest : { ...rest, _meta: meta };
  return { kind: 'change', notification: { jsonrpc: '2.0', method, ...(Object.keys(legacy).length === 0 ? {} : { params: legacy }) } };
}

/** Whether an acknowledgement honored anything: a stream that carries nothing is not reopened. */
export function honorsAnything(honored: JsonObject): boolean {
  return Object.values(honored).some((v) => v === true || (Array.isArray(v) && v.length > 0));
}

export const LISTEN_RETRY_FIRST_MS = 500;
export const LISTEN_RETRY_MAX_MS = 30_000;

/**
 * The wait before reopening a dropped listen stream: doubling from the first up to the most, and
 * the first again after a stream that lived at least that long (a server that acknowledges and
 * drops at once is not asked again at that pace).
 */
export function nextListenRetry(previousMs: number | undefined, livedMs: number): number {
  if (previousMs === undefined || livedMs >= LISTEN_RETRY_MAX_MS) return LISTEN_RETRY_FIRST_MS;
  return Math.min(previousMs * 2, LISTEN_RETRY_MAX_MS);
}
