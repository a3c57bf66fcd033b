// Which side serves a request to a legacy upstream that has moved some items to its migrated
// server: the legacy path (the bridge, or a 2025-era client's pass-through session) or the
// migrated server. A first request goes by its item; a 2026-07-28 retry goes back where its
// interaction began, told by its requestState (one this proxy sealed began on the legacy path, any
// other on the migrated server), so a reload that moves an item never strands an interaction
// halfway. A 2025-era client's request has no retry to route: the proxy runs its rounds. Pure.
import { CUTOVER_KINDS, type CutoverConfig, type CutoverItems, type CutoverKind } from '../config/cutover.js';
import { matchesTemplate } from '../protocol/resource-names.js';

export type Side = 'legacy' | 'migrated';

/** Who issued a retry's requestState (or a task's id): this proxy's keys, someone else, or nobody (a first request). */
export type StateOrigin = 'proxy' | 'other' | 'none';

/**
 * Who sent a request: a 2026-07-28 client, told by its token's origin, or (`session`) a 2025-era
 * client on its pass-through session, which sends no requestState (the proxy runs the rounds of a
 * cut-over item itself) and whose task ids are the legacy server's.
 */
export type Sender = StateOrigin | 'session';

/** A task's methods: the task id says who runs it, as a requestState says who asked. */
const TASK_METHODS: ReadonlySet<string> = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

/** The token a request carries that names where it began: a retry's requestState, a task method's taskId. */
export function tokenOf(method: unknown, params: Record<string, unknown> | undefined): unknown {
  return typeof method === 'string' && TASK_METHODS.has(method) ? params?.['taskId'] : params?.['requestState'];
}

/** The origin of a request's token, given who can tell whether this proxy sealed it. */
export function originOf(token: unknown, sealedHere: (token: unknown) => boolean): StateOrigin {
  if (token === undefined || token === null) return 'none';
  return sealedHere(token) ? 'proxy' : 'other';
}

/**
 * Where one request goes. `origin` is that of a 2026-07-28 request's token (tokenOf), or `session`
 * for a 2025-era client's; without a cutover everything is the legacy path's.
 */
export function sideOf(cutover: CutoverItems | undefined, method: unknown, params: Record<string, unknown> | undefined, origin: Sender): Side {
  if (!cutover) return 'legacy';
  if (origin === 'proxy') return 'legacy';
  if (origin === 'session') return isCutOver(cutover, method, params) ? 'migrated' : 'legacy';
  const interactive = method === 'tools/call' || method === 'prompts/get' || method === 'resources/read';
  if (!interactive && !(typeof method === 'string' && TASK_METHODS.has(method))) return 'legacy';
  if (origin === 'other') return 'migrated';
  return isCutOver(cutover, method, params) ? 'migrated' : 'legacy';
}

/** Whether the item a first tools/call, prompts/get or resources/read names is cut over. */
export function isCutOver(cutover: CutoverItems, method: unknown, params: Record<string, unknown> | undefined): boolean {
  const name = params?.['name'];
  const uri = params?.['uri'];
  switch (method) {
    case 'tools/call':
      return typeof name === 'string' && cutover.tools.includes(name);
    case 'prompts/get':
      return typeof name === 'string' && cutover.prompts.includes(name);
    case 'resources/read':
      if (typeof uri !== 'string') return false;
      return cutover.resources.includes(uri) || cutover.resourceTemplates.some((t) => matchesTemplate(uri, t));
    default:
      return false;
  }
}

/** The kinds whose cut-over items differ between two configurations (a reload), for list_changed. */
export function changedKinds(before: CutoverItems | undefined, after: CutoverItems | undefined): CutoverKind[] {
  return CUTOVER_KINDS.filter((k) => !sameItems(before?.[k] ?? [], after?.[k] ?? []));
}

/**
 * What the migrated server of `next` must be seen to list before `next` applies: what it cuts over
 * that was not checked on that same server (`checked`: the cutover that last passed the check).
 * Moving items back needs nothing, so a rollback never waits for the migrated server.
 */
export function itemsToCheck(checked: CutoverConfig | undefined, next: CutoverConfig): CutoverItems {
  const before = checked !== undefined && JSON.stringify(checked.target) === JSON.stringify(next.target) ? checked : undefined;
  const added = (k: CutoverKind) => next[k].filter((item) => !(before?.[k] ?? []).includes(item));
  return { tools: added('tools'), prompts: added('prompts'), resources: added('resources'), resourceTemplates: added('resourceTemplates') };
}

function sameItems(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}
