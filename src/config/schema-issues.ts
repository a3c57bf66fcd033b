// The schema's complaints as `field: message` lines an operator can act on: a mistyped key names
// the closest known one, and a value that may be a string shorthand or an object (`suspend: hold`)
// gets the message of the form it was written in, not zod's "Invalid input".
import type { z } from 'zod';
import { closest } from './closest.js';

type Issue = z.core.$ZodIssue;

export function issueLines(issues: readonly Issue[], schema: z.ZodType, base: readonly PropertyKey[] = []): string[] {
  return issues.flatMap((issue) => {
    const path = [...base, ...issue.path];
    if (issue.code === 'invalid_union') return unionLines(issue, schema, path);
    const where = path.length ? path.join('.') : '(top level)';
    // A bad record key carries the reason (the key's own check) one level down.
    const inner = issue.code === 'invalid_key' ? issue.issues[0]?.message : undefined;
    if (inner) return [`${where}: '${String(path.at(-1))}': ${inner}`];
    if (issue.code === 'unrecognized_keys') {
      const known = knownKeys(schema, path);
      return issue.keys.map((key) => {
        const near = closest(key, known);
        return `${where}: Unrecognized key: "${key}"${near === undefined ? '' : ` (did you mean ${near}?)`}`;
      });
    }
    return [`${where}: ${issue.message}`];
  });
}

/** A union's branches each failed: report the one written in the input's own shape. */
function unionLines(issue: Extract<Issue, { code: 'invalid_union' }>, schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  const wrongShape = (branch: readonly Issue[]) => branch.length === 1 && branch[0]!.code === 'invalid_type' && branch[0]!.path.length === 0;
  const fitting = issue.errors.find((branch) => !wrongShape(branch));
  if (fitting) return issueLines(fitting, schema, path);
  const where = path.length ? path.join('.') : '(top level)';
  const expected = issue.errors.map((branch) => (branch[0] as { expected?: string } | undefined)?.expected).filter((e) => e !== undefined);
  return [`${where}: ${expected.length ? `expected ${[...new Set(expected)].join(' or ')}` : issue.message}`];
}

/** The keys an object at `path` of `schema` may hold (through optionals, records, unions, pipes). */
export function knownKeys(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let at: Def[] = [defOf(schema)];
  for (const step of path) at = at.flatMap((d) => childDefs(d, step));
  return [...new Set(at.flatMap((d) => objects(d).flatMap((o) => Object.keys(o.shape ?? {}))))];
}

interface Def {
  type: string;
  shape?: Record<string, unknown>;
  innerType?: unknown;
  valueType?: unknown;
  element?: unknown;
  options?: unknown[];
  in?: unknown;
  out?: unknown;
}

function defOf(schema: unknown): Def {
  return (schema as { _zod: { def: Def } })._zod.def;
}

/** The object schemas a schema stands for, once optionals, unions and pipes are looked through. */
function objects(d: Def): Def[] {
  if (d.type === 'object') return [d];
  if (d.type === 'optional' || d.type === 'nullable' || d.type === 'default') return objects(defOf(d.innerType));
  if (d.type === 'union') return (d.options ?? []).flatMap((o) => objects(defOf(o)));
  if (d.type === 'pipe') return [...objects(defOf(d.in)), ...objects(defOf(d.out))];
  return [];
}

function childDefs(d: Def, step: PropertyKey): Def[] {
  if (d.type === 'optional' || d.type === 'nullable' || d.type === 'default') return childDefs(defOf(d.innerType), step);
  if (d.type === 'union') return (d.options ?? []).flatMap((o) => childDefs(defOf(o), step));
  if (d.type === 'pipe') return [...childDefs(defOf(d.in), step), ...childDefs(defOf(d.out), step)];
  if (d.type === 'record') return [defOf(d.valueType)];
  if (d.type === 'array') return [defOf(d.element)];
  if (d.type === 'object' && typeof step === 'string' && d.shape?.[step] !== undefined) return [defOf(d.shape[step])];
  return [];
}
