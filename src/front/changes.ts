// Relays legacy change notifications to subscriptions/listen subscribers. Legacy servers often
// send bursts (the everything server sends five tools/list_changed after each initialize, and every
// pooled session sends its own copy), so list_changed is coalesced over a short window.
import type { ServerNotifier } from '@modelcontextprotocol/server';
import type { JsonObject } from '../protocol/json.js';

export const CHANGE_COALESCE_MS = 50;

export function createChangeRelay(notify: ServerNotifier, coalesceMs = CHANGE_COALESCE_MS): (method: string, params: JsonObject | undefined) => void {
  const timers = new Map<string, NodeJS.Timeout>();
  const listChanged: Record<string, () => void> = {
    'notifications/tools/list_changed': () => notify.toolsChanged(),
    'notifications/prompts/list_changed': () => notify.promptsChanged(),
    'notifications/resources/list_changed': () => notify.resourcesChanged(),
  };
  return (method, params) => {
    if (method === 'notifications/resources/updated') {
      const uri = params?.['uri'];
      if (typeof uri === 'string') notify.resourceUpdated(uri);
      return;
    }
    const send = listChanged[method];
    if (!send || timers.has(method)) return;
    const timer = setTimeout(() => {
      timers.delete(method);
      send();
    }, coalesceMs);
    timer.unref();
    timers.set(method, timer);
  };
}
