// The migration report as data: what each upstream declares (tools/list, prompts, resources)
// joined with what the audit saw of each item. Pure: the CLI gathers the inputs, renderers print it.
import type { AuditRecord } from '../audit/record.js';
import type { ShadowRecord } from '../audit/shadow-record.js';
import { shadowItems, type ShadowItem } from './shadow.js';
import {
  type AnnotationAdvice,
  annotationAdvice,
  proposeInputs,
  replaySafety,
  signatureOf,
  type ItemKind,
  type ProposedInput,
  type QuestionSignature,
  type Replay,
  type ToolAnnotations,
} from './migration.js';
import { joinReplayRuns, type ReplayMatch } from './replay-join.js';
import { type RootsReading, rootsKey, rootsReading, rootsWhy } from './roots-readers.js';
import { auditedReadName } from './uri-template.js';

/** What one upstream declared when the report asked it. */
export interface Declared {
  upstream: string;
  server?: { name: string; version: string };
  tools: Array<{ name: string; title?: string; annotations?: ToolAnnotations; description?: string; inputSchema?: Record<string, unknown> }>;
  prompts: Array<{ name: string; description?: string; arguments?: Array<{ name: string; required?: boolean; description?: string }> }>;
  resources: Array<{ uri: string; name?: string; description?: string; mimeType?: string }>;
  /** What resources/templates/list answered (absent: not asked). */
  resourceTemplates?: Array<{ uriTemplate: string; name?: string; description?: string; mimeType?: string }>;
  /** Set when the upstream could not be listed (the report still uses the audit). */
  error?: string;
}

export interface Question extends QuestionSignature {
  count: number;
  actions: Record<string, number>;
}

export interface Stats {
  median: number;
  p90: number;
  max: number;
}

export interface ItemReport {
  upstream: string;
  kind: ItemKind;
  name: string;
  declared: boolean;
  annotations?: ToolAnnotations;
  calls: number;
  callsThatAsked: number;
  /** yes / no (in `calls` audited calls) / unknown (never audited). */
  asks: 'yes' | 'no' | 'unknown';
  methods: string[];
  questions: Question[];
  /** Calls by number of rounds. */
  rounds: Record<string, number>;
  thinkMs?: Stats;
  serverMs?: Stats;
  outcomes: Record<string, number>;
  modes: Record<string, number>;
  /** Replayed calls: how often their runs were answered from the record, and how often they asked anew. */
  replay?: ReplayMatch & { calls: number };
  migration: {
    inputRequests: ProposedInput[];
    replay: Replay;
    annotate: AnnotationAdvice[];
    /** Why its 2026-07-28 version asks for the roots first (the server reads them outside calls; roots-readers.ts). */
    readsRoots?: string;
  };
}

export interface ReportModel {
  generatedAt: string;
  audit: { files: string[]; records: number; skippedLines: number };
  upstreams: Array<{ name: string; server?: { name: string; version: string }; error?: string }>;
  items: ItemReport[];
  /** Audited calls by number of rounds, over every item (the rounds chart). */
  roundsPerCall: Record<string, number>;
  /** Shadow comparisons that did not match, per tool, prompt, resource or list. */
  shadow: ShadowItem[];
  /** Per upstream that asks for the roots outside calls (or with --roots-tools): which items read them. */
  roots: RootsReading[];
}

const KIND_OF: Record<string, ItemKind> = { 'tools/call': 'tool', 'prompts/get': 'prompt', 'resources/read': 'resource' };

export function stats(values: readonly number[]): Stats | undefined {
  if (values.length === 0) return undefined;
  const s = [...values].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  return { median: at(0.5), p90: at(0.9), max: s[s.length - 1]! };
}

function bump(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

function outcomeLabel(r: AuditRecord): string {
  const o = r.outcome;
  if (o.kind === 'complete') return o.isError ? 'isError' : 'complete';
  if (o.kind === 'error') return `error ${o.code}`;
  // The last run of a replayed call asked and the client never retried.
  if (o.kind === 'let_go') return 'unanswered';
  return o.kind;
}

function emptyItem(upstream: string, kind: ItemKind, name: string, declared: boolean, annotations?: ToolAnnotations): ItemReport {
  return {
    upstream,
    kind,
    name,
    declared,
    ...(annotations ? { annotations } : {}),
    calls: 0,
    callsThatAsked: 0,
    asks: 'unknown',
    methods: [],
    questions: [],
    rounds: {},
    outcomes: {},
    modes: {},
    migration: { inputRequests: [], replay: replaySafety(kind, annotations), annotate: [] },
  };
}

export function buildReport(
  declared: readonly Declared[],
  records: readonly AuditRecord[],
  audit: { files: string[]; skippedLines: number },
  now: Date,
  shadow: readonly ShadowRecord[] = [],
  rootsTools: readonly string[] = [],
): ReportModel {
  const roots = rootsReading(records, rootsTools);
  const items = new Map<string, ItemReport>();
  const id = (upstream: string, kind: ItemKind, name: string) => `${upstream}\u0000${kind}\u0000${name}`;
  for (const d of declared) {
    for (const t of d.tools) items.set(id(d.upstream, 'tool', t.name), emptyItem(d.upstream, 'tool', t.name, true, t.annotations));
    for (const p of d.prompts) items.set(id(d.upstream, 'prompt', p.name), emptyItem(d.upstream, 'prompt', p.name, true));
    for (const r of d.resources) items.set(id(d.upstream, 'resource', r.uri), emptyItem(d.upstream, 'resource', r.uri, true));
    for (const t of d.resourceTemplates ?? []) items.set(id(d.upstream, 'resource', t.uriTemplate), emptyItem(d.upstream, 'resource', t.uriTemplate, true));
  }
  // Reads are listed per declared resource or template, never per URI read (see auditedReadName).
  const nameOf = (r: Pick<AuditRecord, 'upstream' | 'target' | 'undeclared'>, kind: ItemKind): string => {
    if (kind !== 'resource') return r.target;
    const d = declared.find((x) => x.upstream === r.upstream);
    const n = auditedReadName(
      r,
      (d?.resources ?? []).map((x) => x.uri),
      (d?.resourceTemplates ?? []).map((t) => t.uriTemplate),
    );
    return n.undeclared ? `${n.name || 'no scheme'} (URIs matching no declared resource)` : n.name;
  };
  const questions = new Map<ItemReport, Map<string, Question>>();
  const think = new Map<ItemReport, number[]>();
  const server = new Map<ItemReport, number[]>();
  const roundsPerCall: Record<string, number> = {};
  for (const r of joinReplayRuns(records)) {
    const kind = KIND_OF[r.method];
    if (!kind) continue;
    const name = nameOf(r, kind);
    const key = id(r.upstream, kind, name);
    const item = items.get(key) ?? emptyItem(r.upstream, kind, name, false);
    items.set(key, item);
    item.calls++;
    if (r.requests.length > 0) item.callsThatAsked++;
    bump(item.rounds, String(r.rounds));
    bump(roundsPerCall, String(r.rounds));
    bump(item.outcomes, outcomeLabel(r));
    bump(item.modes, r.mode);
    if (r.replayMatch) {
      const m = item.replay ?? { calls: 0, runs: 0, fromRecord: 0, mismatched: 0 };
      item.replay = {
        calls: m.calls + 1,
        runs: m.runs + r.replayMatch.runs,
        fromRecord: m.fromRecord + r.replayMatch.fromRecord,
        mismatched: m.mismatched + r.replayMatch.mismatched,
      };
    }
    const qs = questions.get(item) ?? new Map<string, Question>();
    questions.set(item, qs);
    for (const q of r.requests) {
      const sig = signatureOf(q);
      const seen = qs.get(sig) ?? {
        method: q.method,
        ...(q.elicitationMode ? { elicitationMode: q.elicitationMode } : {}),
        ...(q.schema ? { schema: q.schema } : {}),
        ...(q.sampling ? { sampling: q.sampling } : {}),
        round: q.round,
        count: 0,
        actions: {},
      };
      seen.count++;
      seen.round = Math.min(seen.round, q.round);
      bump(seen.actions, q.action);
      qs.set(sig, seen);
      if (q.clientMs !== undefined) think.set(item, [...(think.get(item) ?? []), q.clientMs]);
      server.set(item, [...(server.get(item) ?? []), q.serverMs]);
    }
    server.set(item, [...(server.get(item) ?? []), r.finalServerMs]);
  }
  for (const item of items.values()) {
    const qs = [...(questions.get(item)?.values() ?? [])].sort((a, b) => a.round - b.round || a.method.localeCompare(b.method));
    item.questions = qs;
    item.methods = [...new Set(qs.map((q) => q.method))];
    item.asks = item.calls === 0 ? 'unknown' : item.callsThatAsked > 0 ? 'yes' : 'no';
    const t = stats(think.get(item) ?? []);
    const s = stats(server.get(item) ?? []);
    if (t) item.thinkMs = t;
    if (s) item.serverMs = s;
    const reads = roots.find((u) => u.upstream === item.upstream)?.items.find((i) => i.reads && i.kind === item.kind && i.name === item.name);
    item.migration = {
      inputRequests: reads ? rootsFirst(proposeInputs(qs)) : proposeInputs(qs),
      replay: replaySafety(item.kind, item.annotations),
      annotate: annotationAdvice(item.kind, item.annotations, item.asks === 'yes'),
      ...(reads ? { readsRoots: rootsWhy(reads) } : {}),
    };
  }
  const order: Record<string, number> = { yes: 0, unknown: 1, no: 2 };
  return {
    generatedAt: now.toISOString(),
    audit: { files: audit.files, records: records.length, skippedLines: audit.skippedLines },
    upstreams: declared.map((d) => ({ name: d.upstream, ...(d.server ? { server: d.server } : {}), ...(d.error ? { error: d.error } : {}) })),
    items: [...items.values()].sort(
      (a, b) => a.upstream.localeCompare(b.upstream) || order[a.asks]! - order[b.asks]! || a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name),
    ),
    roundsPerCall,
    shadow: shadowItems(shadow.map((s) => (s.method === 'resources/read' ? { ...s, target: nameOf(s, 'resource') } : s))),
    roots,
  };
}

/** The proposed inputs of an item that reads the roots: `roots` in round 1, then the rest a round later (handler-flow.ts withRootsRound). */
function rootsFirst(inputs: readonly ProposedInput[]): ProposedInput[] {
  if (inputs.some((p) => p.round === 1 && p.method === 'roots/list')) return [...inputs];
  const key = rootsKey(new Set(inputs.filter((p) => p.method !== 'roots/list').map((p) => p.key)));
  return [{ round: 1, key, method: 'roots/list', params: {} }, ...inputs.map((p) => ({ ...p, round: p.round + 1 }))];
}
