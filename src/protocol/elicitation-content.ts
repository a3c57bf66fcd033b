// Checking an accepted form elicitation's content against the schema the legacy server asked with.
// Pure. A v1 SDK server validates the content itself and fails the whole call on a mismatch, which
// the client cannot correct; checked here, a mismatch is a -32602 the client can fix and send again
// without losing the round.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsPlugin from 'ajv-formats';

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsPlugin as unknown as typeof addFormatsPlugin.default;

// Schemas come from the legacy server and may carry keywords of older drafts or vendor ones
// (`enumNames`); strict mode would refuse them, and a schema the proxy cannot read is not the
// client's fault.
const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: true });
addFormats(ajv, ['email', 'uri', 'date', 'date-time']);

/** Compiled validators by schema text; a server asks with a handful of schemas, so this stays small. */
const compiled = new Map<string, ValidateFunction | null>();
const MAX_COMPILED = 256;

function validatorFor(schema: unknown): ValidateFunction | null {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return null;
  const text = JSON.stringify(schema);
  let v = compiled.get(text);
  if (v === undefined) {
    try {
      v = ajv.compile(schema);
    } catch {
      v = null; // not a schema ajv can compile: leave the check to the legacy server
    }
    if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value as string);
    compiled.set(text, v);
  }
  return v;
}

function describe(e: ErrorObject): string {
  const missing = e.keyword === 'required' ? (e.params as { missingProperty?: string }).missingProperty : undefined;
  const path = e.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const field = missing ?? path;
  const allowed = e.keyword === 'enum' ? `: one of ${JSON.stringify((e.params as { allowedValues?: unknown[] }).allowedValues)}` : '';
  if (missing) return `field '${missing}' is required`;
  return field ? `field '${field}' ${e.message ?? 'is invalid'}${allowed}` : `${e.message ?? 'is invalid'}${allowed}`;
}

/**
 * Returns why an elicitation answer does not fit the request, or undefined when it fits or there is
 * nothing to check (not accepted, URL mode, no readable schema).
 * @param params the elicitation/create params as asked (mode, requestedSchema)
 * @param answer the client's ElicitResult, already shape-checked
 */
export function elicitationMismatch(params: Record<string, unknown> | undefined, answer: Record<string, unknown>): string | undefined {
  if (answer['action'] !== 'accept') return undefined;
  if ((params?.['mode'] ?? 'form') !== 'form') return undefined;
  const validate = validatorFor(params?.['requestedSchema']);
  if (!validate) return undefined;
  if (validate(answer['content'] ?? {})) return undefined;
  const first = validate.errors?.[0];
  return first ? describe(first) : 'does not match the requested schema';
}
