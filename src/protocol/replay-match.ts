// Replay matching: when a replayed call runs again, which of the legacy server's requests the proxy
// may answer from the record of an earlier run instead of asking the client. Pure.
//
// A request matches a recorded one when it has the same position in the run (the n-th request the
// server sent during the call), the same method and the same shape: what the answer must look like,
// never free text. Shapes:
// - elicitation (form): the mode and the requested schema with its wording removed (title,
//   description, default, examples): a question whose text carries a timestamp still matches;
// - elicitation (url): the mode and the URL without query and fragment (those carry per-run ids);
// - sampling: every parameter but the wording: message roles and content types, maxTokens,
//   temperature, stopSequences, modelPreferences, includeContext, tools and toolChoice;
// - roots/list: the method alone.
import { createHash } from 'node:crypto';
import type { InputMethod, InputRequest } from './input-requests.js';
import { isJsonObject, type JsonObject } from './json.js';

/** One question of a replayed call: asked (`q`, awaiting the client) or answered (`a`). */
export interface RecordEntry {
  /** Position: the entry answers the n-th request the legacy server sent during the call. */
  n: number;
  m: InputMethod;
  /** shapeDigest of what was asked. */
  d: string;
  /** The client's answer, as the client gave it. */
  a?: JsonObject;
  /** What was asked, while the client has not answered it (its schema checks the answer). */
  q?: InputRequest;
}

/** Schema keywords that are wording, not shape. */
const WORDING = new Set(['title', 'description', 'default', 'examples', 'enumNames', '$comment']);

function schemaShape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(schemaShape);
  if (!isJsonObject(value)) return value;
  const out: JsonObject = {};
  for (const key of Object.keys(value).sort()) {
    if (WORDING.has(key)) continue;
    const v = value[key];
    // `properties` maps names to schemas: every name is shape (even one called `title`).
    out[key] = key === 'properties' && isJsonObject(v) ? propertiesShape(v) : schemaShape(v);
  }
  return out;
}

function propertiesShape(props: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const name of Object.keys(props).sort()) out[name] = schemaShape(props[name]);
  return out;
}

function urlShape(raw: unknown): string {
  if (typeof raw !== 'string') return '';
  try {
    const u = new URL(raw);
    return `${u.origin}${u.pathname}`;
  } catch {
    return '';
  }
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (!isJsonObject(value)) return value;
  const out: JsonObject = {};
  for (const key of Object.keys(value).sort()) out[key] = sorted(value[key]);
  return out;
}

function contentTypes(content: unknown): unknown {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks.map((b) => (isJsonObject(b) ? b['type'] : null));
}

function samplingShape(p: JsonObject): unknown {
  const messages = Array.isArray(p['messages']) ? p['messages'] : [];
  const tools = Array.isArray(p['tools']) ? p['tools'] : [];
  return {
    messages: messages.map((m) => (isJsonObject(m) ? [m['role'], contentTypes(m['content'])] : null)),
    maxTokens: p['maxTokens'] ?? null,
    temperature: p['temperature'] ?? null,
    stopSequences: sorted(p['stopSequences'] ?? null),
    modelPreferences: sorted(p['modelPreferences'] ?? null),
    includeContext: p['includeContext'] ?? null,
    tools: tools.map((t) => (isJsonObject(t) ? [t['name'], schemaShape(t['inputSchema'])] : null)),
    toolChoice: sorted(p['toolChoice'] ?? null),
  };
}

/** The shape of what a legacy request asks, as a short digest. */
export function shapeOf(method: InputMethod, params: JsonObject | undefined): unknown {
  const p = params ?? {};
  switch (method) {
    case 'elicitation/create': {
      const mode = p['mode'] === 'url' ? 'url' : 'form';
      return mode === 'url' ? [mode, urlShape(p['url'])] : [mode, schemaShape(p['requestedSchema'] ?? null)];
    }
    case 'sampling/createMessage':
      return samplingShape(p);
    case 'roots/list':
      return [];
  }
}

export function shapeDigest(method: InputMethod, params: JsonObject | undefined): string {
  return createHash('sha256')
    .update(JSON.stringify([method, shapeOf(method, params)]))
    .digest('base64url')
    .slice(0, 16);
}

/** The recorded answer for the request at position `n`, if the record holds a matching one. */
export function recordedAnswer(record: readonly RecordEntry[], n: number, method: InputMethod, digest: string): JsonObject | undefined {
  const entry = record.find((e) => e.n === n);
  if (!entry || entry.a === undefined || entry.m !== method || entry.d !== digest) return undefined;
  return entry.a;
}

/**
 * The record the next state carries after a run: what this run answered from the old record and
 * the new questions, by position. Entries of the old record this run did not reach are dropped:
 * after a question that did not match, the old history says nothing about what comes next.
 */
export function nextRecord(matched: readonly RecordEntry[], asked: readonly RecordEntry[]): RecordEntry[] {
  const byPosition = new Map<number, RecordEntry>();
  for (const e of matched) byPosition.set(e.n, e);
  for (const e of asked) byPosition.set(e.n, e);
  return [...byPosition.values()].sort((a, b) => a.n - b.n);
}

/** Fills in the client's answers: an answered question keeps only its digest and the answer. */
export function withAnswers(record: readonly RecordEntry[], answers: ReadonlyMap<number, JsonObject>): RecordEntry[] {
  return record.map((e) => {
    const a = answers.get(e.n);
    return a === undefined || e.q === undefined ? e : { n: e.n, m: e.m, d: e.d, a };
  });
}
