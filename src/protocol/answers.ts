// Reading a retry's inputResponses against the requests a round asked. Pure.
//
// Per spec (mrtr.mdx, Error Handling): extra keys are ignored; a missing answer is not an error
// (the bridge asks again); an answer of the wrong shape is a protocol error (-32602). Whether an
// accepted form elicitation's content fits the requested schema is the legacy server's to judge,
// as with its own client (client/elicitation.mdx: servers SHOULD validate what they receive): a
// v1 SDK server fails its call, others take what they get.
import { CreateMessageResultWithToolsSchema, ElicitResultSchema, ListRootsResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { InputMethod } from './input-requests.js';
import { isJsonObject, type JsonObject } from './json.js';

export interface AskedInput {
  key: string;
  method: InputMethod;
  /** What was asked. */
  request?: { params?: Record<string, unknown> | undefined };
}

export type Partition = { ok: true; answers: Map<string, Record<string, unknown>>; missing: string[] } | { ok: false; message: string; key?: string };

const SCHEMAS = {
  'elicitation/create': ElicitResultSchema,
  'sampling/createMessage': CreateMessageResultWithToolsSchema,
  'roots/list': ListRootsResultSchema,
} as const;

const RESULT_NAMES: Record<InputMethod, string> = {
  'elicitation/create': 'ElicitResult',
  'sampling/createMessage': 'CreateMessageResult',
  'roots/list': 'ListRootsResult',
};

/**
 * The official v2 front's split of a retry's inputResponses, for the fast lane, which serves a
 * call without it: an entry that is not an object, or that looks like a request or a JSON-RPC
 * response, is dropped (its key listed, for partitionAnswers) so the round can be asked again.
 */
export function partitionInputResponses(raw: unknown): { accepted: Record<string, JsonObject>; dropped: string[] } {
  const accepted: Record<string, JsonObject> = {};
  const dropped: string[] = [];
  if (!isJsonObject(raw)) return { accepted, dropped };
  for (const [key, entry] of Object.entries(raw)) {
    if (!isJsonObject(entry) || 'method' in entry || 'result' in entry) dropped.push(key);
    else accepted[key] = entry as JsonObject;
  }
  return { accepted, dropped };
}

/**
 * @param responses the retry's inputResponses as received (untrusted)
 * @param dropped keys the SDK discarded as not being bare response objects
 */
export function partitionAnswers(asked: readonly AskedInput[], responses: unknown, dropped: readonly string[] = []): Partition {
  if (responses !== undefined && (typeof responses !== 'object' || responses === null || Array.isArray(responses))) {
    return { ok: false, message: 'inputResponses must be an object keyed by the inputRequests keys' };
  }
  const given = (responses ?? {}) as Record<string, unknown>;
  const answers = new Map<string, Record<string, unknown>>();
  const missing: string[] = [];
  for (const { key, method } of asked) {
    if (dropped.includes(key)) {
      return { ok: false, key, message: `inputResponses['${key}'] is not a bare ${RESULT_NAMES[method]} object` };
    }
    if (!Object.hasOwn(given, key)) {
      missing.push(key);
      continue;
    }
    const parsed = SCHEMAS[method].safeParse(given[key]);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? ` at '${issue.path.join('.')}'` : '';
      return { ok: false, key, message: `inputResponses['${key}'] is not a valid ${RESULT_NAMES[method]}${where}: ${issue?.message ?? 'invalid'}` };
    }
    answers.set(key, given[key] as Record<string, unknown>);
  }
  return { ok: true, answers, missing };
}

/**
 * Shapes an answer for the legacy server's negotiated revision. Before 2025-11-25 a sampling result
 * carries exactly one content block and no tool use. Returns an error message when it cannot.
 */
export function adaptAnswer(
  method: InputMethod,
  answer: Record<string, unknown>,
  legacyVersion: string,
): { ok: true; result: Record<string, unknown> } | { ok: false; message: string } {
  if (method !== 'sampling/createMessage' || legacyVersion >= '2025-11-25') return { ok: true, result: answer };
  const content = answer['content'];
  if (Array.isArray(content) && content.length !== 1) {
    return { ok: false, message: `the legacy server speaks ${legacyVersion}, which takes exactly one sampling content block; got ${content.length}` };
  }
  const block = Array.isArray(content) ? (content[0] as unknown) : content;
  const type = typeof block === 'object' && block !== null ? (block as Record<string, unknown>)['type'] : undefined;
  if (type === 'tool_use' || type === 'tool_result') {
    return { ok: false, message: `the legacy server speaks ${legacyVersion}, which has no sampling tool use; got a ${String(type)} block` };
  }
  return { ok: true, result: { ...answer, content: block } };
}
