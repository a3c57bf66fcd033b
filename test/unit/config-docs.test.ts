// docs/configuration.md promises that config/proxy.yaml is an annotated example of every key of the
// configuration file. The keys come from the file's schema, so a key added there and shown nowhere
// fails here.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { FILE_SCHEMA } from '../../src/config/file.js';
import { LIMITS } from '../../src/config/limits.js';

const example = readFileSync(new URL('../../../config/proxy.yaml', import.meta.url), 'utf8');

/** Every key a file may hold, as a path (`upstreams.*.auth.tokenUrl`), through optional values, records, arrays and unions. */
function keysOf(schema: z.ZodType, at: string[] = []): string[][] {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
  switch (def.type) {
    case 'object':
      return Object.entries(def['shape'] as Record<string, z.ZodType>).flatMap(([key, value]) => [[...at, key], ...keysOf(value, [...at, key])]);
    case 'optional':
    case 'nullable':
    case 'default':
      return keysOf(def['innerType'] as z.ZodType, at);
    case 'record':
      return keysOf(def['valueType'] as z.ZodType, [...at, '*']);
    case 'array':
      return keysOf(def['element'] as z.ZodType, [...at, '*']);
    case 'union':
      return (def['options'] as z.ZodType[]).flatMap((option) => keysOf(option, at));
    default:
      return [];
  }
}

describe('config/proxy.yaml', () => {
  it('shows every key of the configuration file, each under its parent', () => {
    const keys = keysOf(FILE_SCHEMA as unknown as z.ZodType);
    assert.ok(keys.length > 60, `the schema's keys were found (${keys.length})`);
    // A key is shown when `KEY:` is written (commented out or not, in a block or a flow mapping) after
    // its nearest named parent's `PARENT:`.
    const shown = (path: string[]) => {
      const named = path.filter((k) => k !== '*');
      const key = named.at(-1)!;
      const parent = named.at(-2);
      const from = parent === undefined ? 0 : example.search(new RegExp(`(^|[\\s{,#])${parent}:`, 'm'));
      return from !== -1 && new RegExp(`(^|[\\s{,#])${key}:`, 'm').test(example.slice(from));
    };
    // The limits are shown once, under `defaults:` (limits.test.ts checks each), and apply per upstream alike.
    const perUpstreamLimit = (path: string[]) => path.length === 3 && path[0] === 'upstreams' && path[2]! in LIMITS;
    const missing = keys.filter((path) => path.at(-1) !== '*' && !perUpstreamLimit(path) && !shown(path)).map((path) => path.join('.'));
    assert.deepEqual([...new Set(missing)], []);
  });
});
