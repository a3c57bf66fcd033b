// Compares what the primary (the legacy server, through the bridge) and the candidate (the
// migrated server) answered to one request. Each method has a view of the fields that matter
// (tools/call: content, structuredContent, isError; lists: the items by name), so envelope fields
// (`resultType`, `_meta`, cache hints, cursors) never count. Volatile fields are ignored by path. Pure.
import type { PathStep } from '../config/shadow.js';
import { isJsonObject, type JsonObject } from '../protocol/json.js';

/** How one request ended on one side: a result, or a JSON-RPC error (the code the client gets). */
export type SideOutcome = { kind: 'result'; result: JsonObject } | { kind: 'error'; code: number };

/** The shape of a question (never its texts), for differences in what the two servers ask. */
export interface QuestionShape {
  method: string;
  elicitationMode?: 'form' | 'url';
  schema?: unknown;
}

export interface Difference {
  /** Where, e.g. `content[0].text`, `tools.add.inputSchema.required`, `error.code`, `inputRequests`. */
  path: string;
  /** missing: the candidate lacks it; extra: only the candidate has it; changed: both, not equal. */
  kind: 'changed' | 'missing' | 'extra';
  primary?: unknown;
  candidate?: unknown;
  /** For `inputRequests`: the question one side asked that the other did not. */
  question?: QuestionShape;
}

/** Differences kept per comparison; the rest are counted. */
export const MAX_DIFFERENCES = 20;

/** The list methods, the field holding their items and the field that names an item. */
const LISTS: Record<string, { field: string; key: string }> = {
  'tools/list': { field: 'tools', key: 'name' },
  'prompts/list': { field: 'prompts', key: 'name' },
  'resources/list': { field: 'resources', key: 'uri' },
  'resources/templates/list': { field: 'resourceTemplates', key: 'uriTemplate' },
};

/** The part of a result that is compared for `method`. */
export function comparableView(method: string, result: JsonObject): JsonObject {
  switch (method) {
    case 'tools/call':
      return {
        content: result['content'] ?? [],
        ...(result['structuredContent'] === undefined ? {} : { structuredContent: result['structuredContent'] }),
        isError: result['isError'] === true,
      };
    case 'prompts/get':
      return { ...(result['description'] === undefined ? {} : { description: result['description'] }), messages: result['messages'] ?? [] };
    case 'resources/read':
      return { contents: result['contents'] ?? [] };
  }
  const list = LISTS[method];
  if (!list) return result;
  const items: JsonObject = {};
  for (const item of Array.isArray(result[list.field]) ? (result[list.field] as unknown[]) : []) {
    if (!isJsonObject(item)) continue;
    // Legacy task support (`execution`) does not exist in 2026-07-28: its Tool has no such field.
    const { execution: _execution, ...rest } = item;
    items[String(item[list.key])] = method === 'tools/list' ? rest : item;
  }
  return { [list.field]: items };
}

/** Every difference between the two outcomes of `method`, ignoring the `ignore` paths. */
export function compareOutcomes(method: string, primary: SideOutcome, candidate: SideOutcome, ignore: readonly PathStep[][]): Difference[] {
  if (primary.kind === 'error' || candidate.kind === 'error') {
    if (primary.kind === 'error' && candidate.kind === 'error')
      return primary.code === candidate.code ? [] : [{ path: 'error.code', kind: 'changed', primary: primary.code, candidate: candidate.code }];
    return [{ path: 'outcome', kind: 'changed', primary: describe(primary), candidate: describe(candidate) }];
  }
  const out: Difference[] = [];
  diff(comparableView(method, primary.result), comparableView(method, candidate.result), [], ignore, out);
  return out;
}

function describe(o: SideOutcome): string {
  return o.kind === 'error' ? `error ${o.code}` : 'result';
}

type Concrete = string | number;

function diff(a: unknown, b: unknown, at: Concrete[], ignore: readonly PathStep[][], out: Difference[]): void {
  if (ignored(at, ignore)) return;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) diffEntry(a, b, i, i < a.length, i < b.length, at, ignore, out);
    return;
  }
  if (isJsonObject(a) && isJsonObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) diffEntry(a, b, k, a[k] !== undefined, b[k] !== undefined, at, ignore, out);
    return;
  }
  if (!sameJson(a, b)) out.push({ path: pathText(at), kind: 'changed', primary: a, candidate: b });
}

function diffEntry(a: unknown, b: unknown, k: Concrete, inA: boolean, inB: boolean, at: Concrete[], ignore: readonly PathStep[][], out: Difference[]): void {
  const here = [...at, k];
  const va = (a as Record<Concrete, unknown>)[k];
  const vb = (b as Record<Concrete, unknown>)[k];
  if (inA && inB) diff(va, vb, here, ignore, out);
  else if (ignored(here, ignore)) return;
  else if (inA) out.push({ path: pathText(here), kind: 'missing', primary: va });
  else if (inB) out.push({ path: pathText(here), kind: 'extra', candidate: vb });
}

/** A path is ignored when some ignore pattern matches it or one of its ancestors. */
export function ignored(at: readonly Concrete[], ignore: readonly PathStep[][]): boolean {
  return ignore.some((pattern) => pattern.length <= at.length && pattern.every((step, i) => matches(step, at[i]!)));
}

function matches(step: PathStep, value: Concrete): boolean {
  if ('any' in step) return true;
  if ('index' in step) return value === step.index;
  return String(value) === step.key;
}

const IDENT = /^[A-Za-z_$][\w$-]*$/;

export function pathText(at: readonly Concrete[]): string {
  return at.map((s, i) => (typeof s === 'number' ? `[${s}]` : IDENT.test(s) ? `${i === 0 ? '' : '.'}${s}` : `[${JSON.stringify(s)}]`)).join('');
}

/** Structural JSON equality (key order does not matter). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => sameJson(v, b[i]));
  if (isJsonObject(a) && isJsonObject(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => sameJson(a[k], b[k]));
  }
  return false;
}
