// What migrating one tool, prompt or resource to 2026-07-28 takes, from what it asked: the
// inputRequests a migrated version would return (keys and schemas), whether re-running it from the
// start is safe (a 2026-07-28 server runs the handler again on every retry), and what to annotate.
import type { SamplingShape, SchemaShape } from '../audit/record.js';

export type ItemKind = 'tool' | 'prompt' | 'resource';

export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** One distinct question: same method, elicitation mode and schema properties. */
export interface QuestionSignature {
  method: string;
  elicitationMode?: 'form' | 'url';
  schema?: SchemaShape;
  sampling?: SamplingShape;
  /** The earliest round it was asked in. */
  round: number;
}

export interface ProposedInput {
  round: number;
  key: string;
  method: string;
  params: Record<string, unknown>;
}

export interface Replay {
  safe: 'yes' | 'no' | 'unknown';
  why: string;
}

/** Identity of a question for grouping: method, mode and the sorted property names with types. */
export function signatureOf(q: Pick<QuestionSignature, 'method' | 'elicitationMode' | 'schema'>): string {
  const props = q.schema
    ? Object.entries(q.schema.properties)
        .map(([k, p]) => `${k}:${p.type}`)
        .sort()
        .join(',')
    : '';
  return `${q.method}|${q.elicitationMode ?? ''}|${props}`;
}

/** A readable, stable key for a question: the form's field names, or what the method asks for. */
export function baseKey(q: Pick<QuestionSignature, 'method' | 'elicitationMode' | 'schema'>): string {
  if (q.method === 'sampling/createMessage') return 'sampling';
  if (q.method === 'roots/list') return 'roots';
  if (q.elicitationMode === 'url') return 'url_consent';
  const names = Object.keys(q.schema?.properties ?? {});
  return names.length === 0
    ? 'confirm'
    : names
        .slice(0, 3)
        .join('_')
        .replace(/[^A-Za-z0-9_-]/g, '_');
}

/** A JSON Schema rebuilt from a shape (enum values are not audited: their count is kept). */
export function schemaFromShape(shape: SchemaShape): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [name, p] of Object.entries(shape.properties)) {
    properties[name] = { type: p.type, ...(p.format ? { format: p.format } : {}), ...(p.enum === undefined ? {} : { enumOptions: p.enum }) };
    if (p.required) required.push(name);
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

function paramsFor(q: QuestionSignature): Record<string, unknown> {
  if (q.method === 'elicitation/create') {
    if (q.elicitationMode === 'url') return { mode: 'url', message: '…', url: '…', elicitationId: '…' };
    return { mode: 'form', message: '…', requestedSchema: schemaFromShape(q.schema ?? { properties: {} }) };
  }
  if (q.method === 'sampling/createMessage') {
    const s = q.sampling;
    return {
      messages: `${s?.messages ?? 0} message(s), roles ${(s?.roles ?? []).join('/') || '?'}, content ${(s?.contentTypes ?? []).join('/') || '?'}`,
      ...(s?.maxTokens === undefined ? {} : { maxTokens: s.maxTokens }),
      ...(s?.systemPrompt ? { systemPrompt: '…' } : {}),
      ...(s?.includeContext ? { includeContext: s.includeContext } : {}),
    };
  }
  return {};
}

/** The inputRequests a migrated version would return in each round, keyed as on the wire (the round is not part of it). */
export function inputRequestsByRound(
  inputs: readonly ProposedInput[],
): Array<{ round: number; inputRequests: Record<string, { method: string; params: Record<string, unknown> }> }> {
  const rounds = [...new Set(inputs.map((p) => p.round))].sort((a, b) => a - b);
  return rounds.map((round) => ({
    round,
    inputRequests: Object.fromEntries(inputs.filter((p) => p.round === round).map((p) => [p.key, { method: p.method, params: p.params }])),
  }));
}

/** The inputRequests a migrated version would return, round by round, with unique keys. */
export function proposeInputs(questions: readonly QuestionSignature[]): ProposedInput[] {
  const used = new Map<string, number>();
  return [...questions]
    .sort((a, b) => a.round - b.round)
    .map((q) => {
      const base = baseKey(q);
      const n = (used.get(base) ?? 0) + 1;
      used.set(base, n);
      return { round: q.round, key: n === 1 ? base : `${base}_${n}`, method: q.method, params: paramsFor(q) };
    });
}

export function replaySafety(kind: ItemKind, annotations: ToolAnnotations | undefined): Replay {
  if (kind === 'prompt') return { safe: 'yes', why: 'prompts/get only reads' };
  if (kind === 'resource') return { safe: 'yes', why: 'resources/read only reads' };
  if (annotations?.readOnlyHint === true) return { safe: 'yes', why: 'declared readOnlyHint' };
  if (annotations?.destructiveHint === true && annotations.idempotentHint !== true)
    return { safe: 'no', why: 'declared destructiveHint and not idempotentHint' };
  if (annotations?.idempotentHint === true) return { safe: 'yes', why: 'declared idempotentHint' };
  return { safe: 'unknown', why: 'no annotation says it is read-only or idempotent: treat re-running it as unsafe' };
}

/** One annotation a tool should declare, and why. */
export interface AnnotationAdvice {
  annotation: keyof ToolAnnotations;
  why: string;
}

/**
 * The tool annotations worth adding: only those not declared, and none a declared one rules out
 * (a destructive tool is not read-only; the other three say nothing for a read-only one). Re-running
 * matters most for tools that ask: a 2026-07-28 server runs the handler again on every retry.
 */
export function annotationAdvice(kind: ItemKind, annotations: ToolAnnotations | undefined, asks: boolean): AnnotationAdvice[] {
  if (kind !== 'tool') return [];
  const a = annotations ?? {};
  const out: AnnotationAdvice[] = [];
  if (a.readOnlyHint === undefined && a.destructiveHint !== true) {
    out.push({ annotation: 'readOnlyHint', why: 'true if it changes nothing: it is then replayed, and re-run, safely' });
  }
  if (a.readOnlyHint !== true) {
    if (a.destructiveHint === undefined) {
      out.push({ annotation: 'destructiveHint', why: 'false if it only adds, true if it deletes or overwrites (clients assume true)' });
    }
    if (a.idempotentHint === undefined) {
      out.push({
        annotation: 'idempotentHint',
        why: asks
          ? 'it asks mid-call and a 2026-07-28 server runs it again on every retry: make the work before each question safe to repeat, then declare it true'
          : 'true if calling it again with the same arguments changes nothing more',
      });
    }
  }
  if (a.openWorldHint === undefined)
    out.push({ annotation: 'openWorldHint', why: 'false if it touches only what the server owns, true if it reaches other systems' });
  return out;
}
