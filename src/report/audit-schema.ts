// What an audit line must be before the report trusts it: the audit record and the shadow record
// with their types, enumerations and sizes. An audit file can be edited by anyone who can write
// it, so a line that fails is skipped and named, never read as far as it goes. Pure.
import { z } from 'zod';
import type { AuditRecord } from '../audit/record.js';
import type { ShadowRecord } from '../audit/shadow-record.js';

/** Longest line read: far above any record the proxy writes, bounded so one line cannot take the memory. */
export const MAX_AUDIT_LINE = 1 << 20;

const name = z.string().max(4096);
const word = z.string().max(256);
const count = z.number().int().min(0).max(1_000_000);
const ms = z.number().min(0).max(1e12);
const round = z.number().int().min(1).max(10_000);
const list = <T extends z.ZodType>(item: T, max = 1000) => z.array(item).max(max);
/** A JSON object whose keys are bounded in number. */
const object = z.record(z.string(), z.unknown()).refine((o) => Object.keys(o).length <= 1000, 'more than 1000 keys');

const schemaShape = z.object({
  properties: z
    .record(word, z.object({ type: word, format: word.optional(), enum: count.optional(), required: z.boolean() }))
    .refine((o) => Object.keys(o).length <= 1000, 'more than 1000 properties'),
});

const samplingShape = z.object({
  messages: count,
  roles: list(word),
  contentTypes: list(word),
  maxTokens: z.number().int().min(0).optional(),
  systemPrompt: z.boolean(),
  includeContext: word.optional(),
  temperature: z.boolean(),
  stopSequences: count,
  modelHints: count,
  tools: count,
});

const question = z.union([
  z.object({ method: z.literal('elicitation/create'), mode: z.literal('form'), message: name.max(65_536), requestedSchema: object }),
  z.object({ method: z.literal('elicitation/create'), mode: z.literal('url'), message: name.max(65_536), url: name }),
  z.object({
    method: z.literal('sampling/createMessage'),
    params: object.and(z.object({ messages: list(z.object({ role: word, contentTypes: list(word) })).optional() })),
  }),
  z.object({ method: word }),
]);

const request = z.object({
  round,
  key: word,
  method: word,
  elicitationMode: z.enum(['form', 'url']).optional(),
  schema: schemaShape.optional(),
  sampling: samplingShape.optional(),
  action: word,
  fields: list(word).optional(),
  clientMs: ms.optional(),
  serverMs: ms,
  question: question.optional(),
  asked: z.unknown().optional(),
  answer: z.unknown().optional(),
});

const outcome = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('complete'), isError: z.boolean() }),
  z.object({ kind: z.literal('error'), code: z.number().int(), message: name }),
  z.object({ kind: z.literal('expired') }),
  z.object({ kind: z.literal('cancelled'), why: name }),
  z.object({ kind: z.literal('lost'), why: name }),
  z.object({ kind: z.literal('let_go') }),
  z.object({ kind: z.literal('task') }),
]);

export const auditRecordSchema = z.object({
  ts: word,
  upstream: word,
  method: word,
  target: name,
  mode: word,
  rounds: count,
  durationMs: ms,
  finalServerMs: ms,
  requests: list(request),
  outcome,
  arguments: z.unknown().optional(),
  resultShape: z.object({ parts: list(name), structured: list(name).optional(), isError: z.boolean().optional() }).optional(),
  rootsRound: z.literal(true).optional(),
  resultNamesRoots: z.boolean().optional(),
  replay: z
    .object({
      call: word,
      run: z.number().int().min(1).max(10_000),
      fromRecord: count,
      mismatched: count,
      answered: list(z.object({ round, key: word, method: word, action: word, fields: list(word).optional(), answer: z.unknown().optional() })),
    })
    .optional(),
}) satisfies z.ZodType<AuditRecord>;

export const shadowRecordSchema = z.object({
  kind: z.literal('shadow'),
  ts: word,
  upstream: word,
  candidate: word,
  method: word,
  target: name,
  outcome: z.enum(['differ', 'candidate_error']),
  primaryRounds: count,
  candidateRounds: count,
  candidateMs: ms,
  differences: list(
    z.object({
      path: name,
      kind: z.enum(['changed', 'missing', 'extra']),
      question: z.object({ method: word, elicitationMode: z.enum(['form', 'url']).optional(), schema: z.unknown().optional() }).optional(),
      primary: z.unknown().optional(),
      candidate: z.unknown().optional(),
    }),
  ),
  truncated: count.optional(),
  error: name.optional(),
  rootsRound: z.enum(['answered', 'unused']).optional(),
}) satisfies z.ZodType<ShadowRecord>;

/** Why a value fails a schema, in a few words: the paths and zod's messages, never the values. */
export function whyInvalid(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.map(String).join('.') || '(record)'}: ${i.message}`)
    .join('; ');
}
