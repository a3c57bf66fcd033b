// Whether a legacy result names one of the roots its caller gave: the one fact the audit keeps of a
// call that ran on roots the proxy asked for before the call (docs/roots.md). A server that reads
// roots at initialize asks nothing in the call of a tool that reads them, so this is how the report
// tells which tools read them. Only the boolean leaves here: never the result's text or the roots.
import type { Root } from '../protocol/json.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The parts of a result a client shows or reads: never `_meta`. */
const SHOWN: Record<string, readonly string[]> = {
  'tools/call': ['content', 'structuredContent'],
  'prompts/get': ['description', 'messages'],
  'resources/read': ['contents'],
};

function strings(v: unknown, out: string[]): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, out);
  else if (isObj(v)) for (const [k, x] of Object.entries(v)) if (k !== '_meta') strings(x, out);
  return out;
}

/**
 * What a result would contain if it named the root: its URI and, for a `file:` URI, its path, both
 * without a trailing slash. A root of the whole file system (`file:///`) would match any path, so
 * it names nothing.
 */
export function rootNeedles(root: Root): string[] {
  const trim = (s: string) => (s.length > 1 ? s.replace(/\/+$/, '') : s);
  let url: URL;
  try {
    url = new URL(root.uri);
  } catch {
    return root.uri.length > 1 ? [trim(root.uri)] : [];
  }
  if (url.protocol !== 'file:') return [trim(root.uri)];
  const path = trim(decodeURIComponent(url.pathname));
  if (path === '/' || path === '') return [];
  return [...new Set([trim(root.uri), path])];
}

function literal(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Whether the result of `method` names one of `roots`: a root's URI or file path appears in its
 * text or structured content, not as part of a longer name (`/work/a` is not named by `/work/ab`
 * nor by `/home/work/a`).
 */
export function resultNamesRoots(method: string, result: Obj, roots: readonly Root[]): boolean {
  const text = (SHOWN[method] ?? []).flatMap((k) => strings(result[k], []));
  if (text.length === 0) return false;
  for (const needle of roots.flatMap(rootNeedles)) {
    const re = new RegExp(`(?<![\\w.-])${literal(needle)}(?![\\w-])`);
    if (text.some((t) => re.test(t))) return true;
  }
  return false;
}
