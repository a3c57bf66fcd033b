import type { AuditedQuestion, ResultShape } from './question.js';

// The audit record of one finished interactive call and the pure functions that build its parts
// from the bridge's plain events. What the user typed, the sampling messages, the tool's arguments
// and a legacy error's message (it may echo them) are kept only when `content` is on; everything
// else is shape: names the server declared, types, counts (docs/migration.md, what the audit keeps).

export type AuditOutcome =
  | { kind: 'complete'; isError: boolean }
  /** `message` only with --audit-content: a legacy server's message may echo the arguments. */
  | { kind: 'error'; code: number; message?: string }
  | { kind: 'expired' }
  | { kind: 'cancelled'; why: string }
  | { kind: 'lost'; why: string }
  /** A replay run that asked the client and let its legacy call go: the call goes on in its next run. */
  | { kind: 'let_go' }
  /** The call went on as a task of the proxy: the task's own audit line (kind `task`) tells how it ended. */
  | { kind: 'task' };

/** A requested schema without its texts and defaults: property names, types, formats, enum sizes. */
export interface SchemaShape {
  properties: Record<string, { type: string; format?: string; enum?: number; required: boolean }>;
}

export interface SamplingShape {
  messages: number;
  roles: string[];
  contentTypes: string[];
  maxTokens?: number;
  systemPrompt: boolean;
  includeContext?: string;
  temperature: boolean;
  stopSequences: number;
  modelHints: number;
  tools: number;
}

export interface AuditedRequest {
  round: number;
  key: string;
  method: string;
  /** elicitation/create only. */
  elicitationMode?: 'form' | 'url';
  schema?: SchemaShape;
  sampling?: SamplingShape;
  /** accept / decline / cancel (`unknown` for anything else); `unanswered` when the call ended before the client answered. */
  action: string;
  /** Names of the requested schema's fields an accepted elicitation returned (never their values, never names the client added). */
  fields?: string[];
  /** Time from the round's `input_required` to the client's retry. */
  clientMs?: number;
  /** Time the legacy server worked (since the call started or the previous retry) before asking. */
  serverMs: number;
  /** Only with --audit-questions: what the server authored (message, schema, sampling parameters). */
  question?: AuditedQuestion;
  /** Only with --audit-content: what was asked and answered. */
  asked?: unknown;
  answer?: unknown;
}

/** What one run of a replayed call adds: which call it belongs to and how well the record matched. */
export interface ReplayRunInfo {
  /** The call's id, the same in the records of all its runs (on any instance). */
  call: string;
  /** 1 for the first run; run n may ask round n. */
  run: number;
  /** Legacy requests this run answered from the record, without asking the client. */
  fromRecord: number;
  /** Positions where the server asked something other than the record held: asked anew. */
  mismatched: number;
  /** The client's answers to the previous run's questions, carried by the retry that started this run. */
  answered: Array<{ round: number; key: string; method: string; action: string; fields?: string[]; answer?: unknown }>;
}

export interface AuditRecord {
  ts: string;
  upstream: string;
  method: string;
  /**
   * The tool or prompt name; for resources/read the declared resource's URI or the template the URI
   * matched (protocol/resource-names.ts), never the URI's own values (those are in `arguments`, with --audit-content).
   */
  target: string;
  /** resources/read of a URI that matched no declared resource or template: `target` is its scheme only. */
  undeclared?: true;
  mode: string;
  rounds: number;
  durationMs: number;
  /** Time the legacy server took after the last answer (or the whole call without rounds). */
  finalServerMs: number;
  requests: AuditedRequest[];
  outcome: AuditOutcome;
  /** Only with --audit-content. */
  arguments?: unknown;
  /** Only with --audit-questions: the result's shape (content types, structuredContent keys), never its values. */
  resultShape?: ResultShape;
  /**
   * The proxy asked the client for its roots before sending the call (a legacy server that reads
   * roots at initialize, docs/roots.md): the call ran on a session told those roots.
   */
  rootsRound?: true;
  /** Only with --audit-questions and a roots round: whether the result names one of those roots (never the roots or the text). */
  resultNamesRoots?: boolean;
  /** Replayed calls only. */
  replay?: ReplayRunInfo;
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The tool or prompt name, or the resource URI, of an interactive call (the recorder names a URI by its template). */
export function targetOf(method: string, params: Obj): string {
  const t = method === 'resources/read' ? params['uri'] : params['name'];
  return typeof t === 'string' ? t : '';
}

export function schemaShape(schema: unknown): SchemaShape {
  const props = isObj(schema) && isObj(schema['properties']) ? schema['properties'] : {};
  const required = isObj(schema) && Array.isArray(schema['required']) ? (schema['required'] as unknown[]) : [];
  const properties: SchemaShape['properties'] = {};
  for (const [name, p] of Object.entries(props)) {
    const d = isObj(p) ? p : {};
    const type = typeof d['type'] === 'string' ? d['type'] : Array.isArray(d['enum']) || Array.isArray(d['oneOf']) ? 'string' : 'unknown';
    const options = Array.isArray(d['enum']) ? d['enum'].length : Array.isArray(d['oneOf']) ? d['oneOf'].length : undefined;
    properties[name] = {
      type,
      ...(typeof d['format'] === 'string' ? { format: d['format'] } : {}),
      ...(options === undefined ? {} : { enum: options }),
      required: required.includes(name),
    };
  }
  return { properties };
}

export function samplingShape(params: Obj): SamplingShape {
  const messages = Array.isArray(params['messages']) ? (params['messages'] as unknown[]).filter(isObj) : [];
  const contentTypes = new Set<string>();
  for (const m of messages) {
    for (const c of Array.isArray(m['content']) ? m['content'] : [m['content']]) if (isObj(c) && typeof c['type'] === 'string') contentTypes.add(c['type']);
  }
  const prefs = isObj(params['modelPreferences']) ? params['modelPreferences'] : {};
  return {
    messages: messages.length,
    roles: [...new Set(messages.map((m) => String(m['role'])))],
    contentTypes: [...contentTypes],
    ...(typeof params['maxTokens'] === 'number' ? { maxTokens: params['maxTokens'] } : {}),
    systemPrompt: typeof params['systemPrompt'] === 'string',
    ...(typeof params['includeContext'] === 'string' ? { includeContext: params['includeContext'] } : {}),
    temperature: typeof params['temperature'] === 'number',
    stopSequences: Array.isArray(params['stopSequences']) ? params['stopSequences'].length : 0,
    modelHints: Array.isArray(prefs['hints']) ? prefs['hints'].length : 0,
    tools: Array.isArray(params['tools']) ? params['tools'].length : 0,
  };
}

/** What a legacy request asked for, as shape: the part of an audited request known at suspension. */
export function describeAsk(method: string, params: Obj | undefined): Pick<AuditedRequest, 'elicitationMode' | 'schema' | 'sampling'> {
  if (method === 'elicitation/create') {
    const url = params?.['mode'] === 'url';
    return { elicitationMode: url ? 'url' : 'form', ...(url ? {} : { schema: schemaShape(params?.['requestedSchema']) }) };
  }
  if (method === 'sampling/createMessage') return { sampling: samplingShape(params ?? {}) };
  return {};
}

const ACTIONS = new Set(['accept', 'decline', 'cancel']);

/**
 * The client's action for one answer, and which of the requested schema's fields accepted
 * elicitation content holds. The client chose the rest of its names: they are its content, never
 * recorded here (without a known schema, no names at all).
 */
export function describeAnswer(method: string, answer: unknown, schema?: SchemaShape): { action: string; fields?: string[] } {
  if (method !== 'elicitation/create') return { action: 'accept' };
  const a = isObj(answer) ? answer : {};
  const action = typeof a['action'] === 'string' && ACTIONS.has(a['action']) ? a['action'] : 'unknown';
  if (!isObj(a['content']) || !schema) return { action };
  return { action, fields: Object.keys(a['content']).filter((k) => Object.hasOwn(schema.properties, k)) };
}

/** How a call ended; a legacy error's message only when `content` (it may echo what the user sent). */
export function outcomeOf(e: { reason: string; why?: string; result?: Obj; error?: { code: number; message: string } }, content = false): AuditOutcome {
  if (e.error) return { kind: 'error', code: e.error.code, ...(content ? { message: e.error.message } : {}) };
  if (e.reason === 'expired') return { kind: 'expired' };
  if (e.reason === 'cancelled') return { kind: 'cancelled', why: e.why ?? 'cancelled' };
  if (e.reason === 'lost') return { kind: 'lost', why: e.why ?? 'the legacy session ended' };
  if (e.reason === 'let_go') return { kind: 'let_go' };
  if (e.reason === 'task') return { kind: 'task' };
  if (e.result) return { kind: 'complete', isError: e.result['isError'] === true };
  return { kind: 'cancelled', why: e.why ?? 'ended without a result' };
}
