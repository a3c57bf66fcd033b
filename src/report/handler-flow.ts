// The question flow of one audited tool, prompt or resource, as a migrated handler must ask it:
// a tree of rounds, each round's questions under stable input keys, and after each round the
// branches the audit saw, told apart by the client's actions where that is enough. Where the same
// actions led different calls different ways, the cause (an argument, an answer's value) was not
// audited: the branch point is marked for the author. Pure.
import type { AuditedRequest, AuditRecord, SamplingShape, SchemaShape } from '../audit/record.js';
import type { AuditedQuestion } from '../audit/question.js';
import { baseKey, signatureOf, type ItemKind } from './migration.js';
import { joinReplayRuns } from './replay-join.js';
import type { Declared } from './model.js';
import { type RootsReading, rootsKey, rootsWhy } from './roots-readers.js';
import { auditedReadName } from './uri-template.js';

/** One question of a round, under the key the migrated handler asks it by. */
export interface FlowQuestion {
  key: string;
  method: string;
  elicitationMode?: 'form' | 'url';
  schema?: SchemaShape;
  sampling?: SamplingShape;
  /** What the server authored (--audit-questions), from the first call that asked it. */
  question?: AuditedQuestion;
  /** The distinct messages seen (an elicitation message that varies names an argument or an answer). */
  messages: string[];
  /** How many audited calls asked it. */
  seen: number;
  /** Why the handler asks it, where the audit did not see it asked (the roots of a server that reads them at initialize). */
  notes?: string[];
}

export interface FlowStep {
  round: number;
  asks: FlowQuestion[];
  /** What came after the client answered this round. */
  next: FlowEdge[];
}

export interface FlowEdge {
  /** The client's action per key of the round before (empty at the start). */
  when: Record<string, string>;
  /** The next round, or undefined when the call ended (the author's `finish`). */
  to?: FlowStep;
  calls: number;
  /** How the calls that ended here ended (complete, isError, error CODE). */
  outcomes: Record<string, number>;
  /** The distinct result shapes seen here (--audit-questions), e.g. `content text; structuredContent {a, b}`. */
  results: string[];
  /** The roots round a migrated handler asks first, which the audit never saw asked (withRootsRound). */
  added?: true;
}

export interface HandlerFlow {
  upstream: string;
  kind: ItemKind;
  /** The tool or prompt name, the resource URI, or the declared template the audited URIs were read through. */
  name: string;
  calls: number;
  start: FlowEdge[];
  /** Whether every question was audited with --audit-questions. */
  questionsAudited: boolean;
  /** Why it asks for the roots in its first round (roots-readers.ts), when it does. */
  rootsFirst?: string;
}

const KIND_OF: Record<string, ItemKind> = { 'tools/call': 'tool', 'prompts/get': 'prompt', 'resources/read': 'resource' };

/** A call that did not run to its end says nothing about what follows its last round. */
const ENDED = new Set(['complete', 'error']);

function outcomeLabel(r: AuditRecord): string {
  const o = r.outcome;
  if (o.kind === 'complete') return o.isError ? 'isError' : 'complete';
  return o.kind === 'error' ? `error ${o.code}` : o.kind;
}

function sameWhen(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a).sort();
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

const stepSignature = (asks: readonly { sig: string }[]) =>
  asks
    .map((a) => a.sig)
    .sort()
    .join('\n');

/** Keys are unique in the whole flow: the same question at the same repetition keeps its key everywhere. */
class KeyAllocator {
  private readonly byQuestion = new Map<string, string>();
  private readonly used = new Set<string>();

  keyFor(sig: string, base: string): string {
    const known = this.byQuestion.get(sig);
    if (known) return known;
    let key = base;
    for (let n = 2; this.used.has(key); n++) key = `${base}_${n}`;
    this.used.add(key);
    this.byQuestion.set(sig, key);
    return key;
  }
}

/** What an upstream declared of its resources, for telling which template an audited URI was read through. */
export type DeclaredResources = Pick<Declared, 'upstream' | 'resources' | 'resourceTemplates'>;

/**
 * The flow of every item the audit saw ask, and of every item judged to read the roots a server
 * asks for outside calls (`roots`, from rootsReading), which asks for them first; items that never
 * asked have no flow. The reads of a declared template's URIs (`declared`) make one flow, named by
 * the template. In name order.
 */
export function handlerFlows(records: readonly AuditRecord[], roots: readonly RootsReading[] = [], declared: readonly DeclaredResources[] = []): HandlerFlow[] {
  const flows = new Map<string, HandlerFlow>();
  const keys = new Map<HandlerFlow, KeyAllocator>();
  // A read of a URI matching nothing declared has no handler to migrate to (its name is a scheme): no flow.
  const nameOf = (r: Pick<AuditRecord, 'upstream' | 'target' | 'undeclared'>, kind: ItemKind): string | undefined => {
    if (kind !== 'resource') return r.target;
    const d = declared.find((x) => x.upstream === r.upstream);
    const n = auditedReadName(
      r,
      (d?.resources ?? []).map((x) => x.uri),
      (d?.resourceTemplates ?? []).map((t) => t.uriTemplate),
    );
    return n.undeclared ? undefined : n.name;
  };
  for (const r of joinReplayRuns(records)) {
    const kind = KIND_OF[r.method];
    if (!kind) continue;
    const name = nameOf(r, kind);
    if (name === undefined) continue;
    const id = `${r.upstream}\u0000${kind}\u0000${name}`;
    let flow = flows.get(id);
    if (!flow) {
      flow = { upstream: r.upstream, kind, name, calls: 0, start: [], questionsAudited: true };
      flows.set(id, flow);
      keys.set(flow, new KeyAllocator());
    }
    flow.calls++;
    addCall(flow, keys.get(flow)!, r);
  }
  for (const u of roots)
    for (const item of u.items) {
      const id = `${u.upstream}\u0000${item.kind}\u0000${nameOf({ upstream: u.upstream, target: item.name }, item.kind)}`;
      const flow = flows.get(id);
      if (item.reads && flow) flows.set(id, withRootsRound(flow, rootsWhy(item), u.roundCalls > 0));
    }
  return [...flows.values()].filter((f) => f.start.some((e) => e.to)).sort((a, b) => a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name));
}

/** Every question of a flow, each once. */
function questionsOf(edges: readonly FlowEdge[], out: FlowQuestion[] = []): FlowQuestion[] {
  for (const e of edges) {
    if (!e.to) continue;
    out.push(...e.to.asks);
    questionsOf(e.to.next, out);
  }
  return out;
}

function shifted(edges: readonly FlowEdge[]): FlowEdge[] {
  return edges.map((e) => (e.to ? { ...e, to: { ...e.to, round: e.to.round + 1, next: shifted(e.to.next) } } : e));
}

/**
 * The flow with a roots round first: `roots/list` under the key `roots` (the answer is
 * `answers.roots`), then what the audit saw, each round one later. The roots answer has no action
 * to branch on, so what follows it is what followed the start. A flow that already asks for the
 * roots in its first round, on every path, is left as it is.
 */
export function withRootsRound(flow: HandlerFlow, why: string, outsideCalls: boolean): HandlerFlow {
  const first = flow.start.filter((e) => e.to);
  if (first.length === flow.start.length && first.every((e) => e.to!.asks.some((a) => a.method === 'roots/list'))) return flow;
  const roots: FlowQuestion = {
    key: rootsKey(
      new Set(
        questionsOf(flow.start)
          .filter((q) => q.method !== 'roots/list')
          .map((q) => q.key),
      ),
    ),
    method: 'roots/list',
    question: { method: 'roots/list' },
    messages: [],
    seen: flow.calls,
    notes: [
      outsideCalls
        ? `The legacy server asked for the roots outside calls (at initialize), so the audit saw no question here; this ${flow.kind} reads them: ${why}.`
        : `Not seen asked in the audit; this ${flow.kind} reads the roots: ${why}.`,
    ],
  };
  const step: FlowStep = { round: 1, asks: [roots], next: shifted(flow.start) };
  return { ...flow, rootsFirst: why, start: [{ when: {}, to: step, calls: flow.calls, outcomes: {}, results: [], added: true }] };
}

function addCall(flow: HandlerFlow, keys: KeyAllocator, r: AuditRecord): void {
  const rounds = new Map<number, AuditedRequest[]>();
  for (const q of r.requests) rounds.set(q.round, [...(rounds.get(q.round) ?? []), q]);
  const seen = new Map<string, number>();
  let edges = flow.start;
  let when: Record<string, string> = {};
  for (const round of [...rounds.keys()].sort((a, b) => a - b)) {
    const asked = rounds.get(round)!.map((q) => {
      const shape = signatureOf(q);
      // The same question asked again later in one call is another input: its key differs.
      const n = (seen.get(shape) ?? 0) + 1;
      seen.set(shape, n);
      return { q, sig: `${shape}#${n}` };
    });
    const sig = stepSignature(asked);
    let edge = edges.find((e) => sameWhen(e.when, when) && e.to && stepSignature(e.to.asks.map((a) => ({ sig: sigOf(a) }))) === sig);
    if (!edge) {
      edge = { when, to: { round, asks: [], next: [] }, calls: 0, outcomes: {}, results: [] };
      for (const { q, sig: s } of asked) edge.to!.asks.push(flowQuestion(q, keys.keyFor(s, baseKey(q)), s));
      edges.push(edge);
    }
    edge.calls++;
    const step = edge.to!;
    const nextWhen: Record<string, string> = {};
    for (const { q, sig: s } of asked) {
      const fq = step.asks.find((a) => sigOf(a) === s)!;
      fq.seen++;
      if (!q.question) flow.questionsAudited = false;
      else {
        fq.question ??= q.question;
        const message = (q.question as { message?: unknown }).message;
        if (typeof message === 'string' && !fq.messages.includes(message)) fq.messages.push(message);
      }
      nextWhen[fq.key] = q.action;
    }
    // Unanswered questions: the call stopped here, nothing follows that the audit knows.
    if (Object.values(nextWhen).includes('unanswered')) return;
    edges = step.next;
    when = nextWhen;
  }
  if (!ENDED.has(r.outcome.kind)) return;
  let end = edges.find((e) => !e.to && sameWhen(e.when, when));
  if (!end) {
    end = { when, calls: 0, outcomes: {}, results: [] };
    edges.push(end);
  }
  end.calls++;
  const label = outcomeLabel(r);
  end.outcomes[label] = (end.outcomes[label] ?? 0) + 1;
  const shape = r.resultShape ? describeResult(r.resultShape) : undefined;
  if (shape && !end.results.includes(shape)) end.results.push(shape);
}

function describeResult(s: NonNullable<AuditRecord['resultShape']>): string {
  return [
    `content ${s.parts.join(', ') || 'none'}`,
    ...(s.structured ? [`structuredContent {${s.structured.join(', ')}}`] : []),
    ...(s.isError ? ['isError'] : []),
  ].join('; ');
}

/** Each question keeps the signature it was allocated under, for finding it again. */
const SIGS = new WeakMap<FlowQuestion, string>();
const sigOf = (q: FlowQuestion) => SIGS.get(q) ?? '';

function flowQuestion(q: AuditedRequest, key: string, sig: string): FlowQuestion {
  const fq: FlowQuestion = {
    key,
    method: q.method,
    ...(q.elicitationMode ? { elicitationMode: q.elicitationMode } : {}),
    ...(q.schema ? { schema: q.schema } : {}),
    ...(q.sampling ? { sampling: q.sampling } : {}),
    messages: [],
    seen: 0,
  };
  SIGS.set(fq, sig);
  return fq;
}

/** Edges after one point, grouped by the actions that lead to them; a group of several is a choice the audit cannot explain. */
export function groupByWhen(edges: readonly FlowEdge[]): FlowEdge[][] {
  const groups: FlowEdge[][] = [];
  for (const e of edges) {
    const g = groups.find((x) => sameWhen(x[0]!.when, e.when));
    if (g) g.push(e);
    else groups.push([e]);
  }
  return groups;
}

/** Every way the audited calls ended, by the path that led there, with the result shapes seen. */
export function endingsOf(edges: readonly FlowEdge[], out: string[] = [], path = 'start'): string[] {
  for (const e of edges) {
    const when = Object.entries(e.when)
      .map(([k, a]) => `${k} ${a}`)
      .join(', ');
    const here = when ? `${path}, ${when}` : path;
    if (e.to) {
      endingsOf(e.to.next, out, `${here} -> round ${e.to.round}`);
      continue;
    }
    out.push(
      `${here}: ${Object.entries(e.outcomes)
        .map(([o, n]) => `${o} ${n}x`)
        .join(', ')}`,
    );
    for (const r of e.results) out.push(`  ${r}`);
  }
  return out;
}
