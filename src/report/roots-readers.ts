// Which audited tools, prompts and resources read the roots of a legacy server that asks for them
// outside calls (at initialize; docs/roots.md). Through the proxy every call of such a server from a
// client that declares roots gets the proxy's roots round first, whatever the tool does with them,
// so the round itself says nothing about the tool: a result that named the caller's roots does, and
// so does the author (--roots-tools). A migrated handler of a tool judged to read them asks for the
// roots in its first round. Pure.
import type { AuditRecord } from '../audit/record.js';
import type { ItemKind } from './migration.js';
import { joinReplayRuns } from './replay-join.js';

export interface RootsItem {
  kind: ItemKind;
  name: string;
  /** Audited calls that had the proxy's roots round. */
  calls: number;
  /** Of those, the calls whose result was checked for the roots (audited with --audit-questions). */
  checked: number;
  /** Of those, the results that named one of the caller's roots. */
  named: number;
  /** Named by --roots-tools. */
  byOption: boolean;
  /** Judged to read the roots: its migrated handler asks for them first. */
  reads: boolean;
}

export interface RootsReading {
  upstream: string;
  /** Audited calls that had the proxy's roots round: the server asks for the roots outside calls (0: only --roots-tools). */
  roundCalls: number;
  /** Every item with such calls, and the tools named by --roots-tools, in kind and name order. */
  items: RootsItem[];
}

const KIND_OF: Record<string, ItemKind> = { 'tools/call': 'tool', 'prompts/get': 'prompt', 'resources/read': 'resource' };

/** The tools the audit saw called (any upstream), sorted: what --roots-tools may name. */
export function auditedTools(records: readonly AuditRecord[]): string[] {
  return [...new Set(records.filter((r) => r.method === 'tools/call' && r.target !== '').map((r) => r.target))].sort();
}

/** The error for --roots-tools names that are no audited tool, or undefined when every name is one. */
export function unknownRootsTools(records: readonly AuditRecord[], names: readonly string[]): string | undefined {
  const known = auditedTools(records);
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length === 0) return undefined;
  const list = unknown.map((n) => `'${n}'`).join(', ');
  return `--roots-tools: ${list} ${unknown.length === 1 ? 'is not an audited tool' : 'are not audited tools'} (audited: ${known.join(', ') || 'none'})`;
}

/** Per upstream whose audit saw the proxy's roots round, or has a tool named by --roots-tools: which items read the roots. */
export function rootsReading(records: readonly AuditRecord[], rootsTools: readonly string[] = []): RootsReading[] {
  const byUpstream = new Map<string, { roundCalls: number; items: Map<string, RootsItem> }>();
  const itemOf = (upstream: string, kind: ItemKind, name: string): RootsItem => {
    const u = byUpstream.get(upstream) ?? { roundCalls: 0, items: new Map<string, RootsItem>() };
    byUpstream.set(upstream, u);
    const id = `${kind}\u0000${name}`;
    const item = u.items.get(id) ?? { kind, name, calls: 0, checked: 0, named: 0, byOption: false, reads: false };
    u.items.set(id, item);
    return item;
  };
  for (const r of joinReplayRuns(records)) {
    const kind = KIND_OF[r.method];
    if (!kind) continue;
    if (kind === 'tool' && rootsTools.includes(r.target)) itemOf(r.upstream, kind, r.target).byOption = true;
    if (!r.rootsRound) continue;
    const item = itemOf(r.upstream, kind, r.target);
    byUpstream.get(r.upstream)!.roundCalls++;
    item.calls++;
    if (r.resultNamesRoots !== undefined) item.checked++;
    if (r.resultNamesRoots === true) item.named++;
  }
  return [...byUpstream.entries()]
    .map(([upstream, u]) => ({
      upstream,
      roundCalls: u.roundCalls,
      items: [...u.items.values()]
        .map((i) => ({ ...i, reads: i.byOption || i.named > 0 }))
        .sort((a, b) => a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name)),
    }))
    .sort((a, b) => a.upstream.localeCompare(b.upstream));
}

/** Why an item was judged to read the roots, in words (empty when it was not). */
export function rootsWhy(i: RootsItem): string {
  const reasons = [
    ...(i.named > 0 ? [`its result named the caller's roots in ${i.named} of ${i.checked} audited call(s)`] : []),
    ...(i.byOption ? ['named by --roots-tools'] : []),
  ];
  return reasons.join('; ');
}

/** The input key a migrated handler asks the roots under: `roots` (answers.roots), unless another question has that key. */
export function rootsKey(taken: ReadonlySet<string>): string {
  let key = 'roots';
  for (let n = 0; taken.has(key); n++) key = `roots_${n}`;
  return key;
}
