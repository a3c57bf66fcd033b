// The lists a legacy upstream with a cutover shows: its own, with each cut-over item replaced by
// the migrated server's entry of that name, so that a client sees one server whose items are
// described by whichever side serves them. Pure: the entries are fetched elsewhere (relay/).
import type { CutoverItems, CutoverKind } from '../config/cutover.js';
import { isJsonObject, type JsonObject } from '../protocol/json.js';

/** A list method, the kind of item it lists, the result's array and the field that names an entry. */
export interface ListShape {
  kind: CutoverKind;
  field: string;
  key: string;
}

export const CUTOVER_LISTS: Readonly<Record<string, ListShape>> = {
  'tools/list': { kind: 'tools', field: 'tools', key: 'name' },
  'prompts/list': { kind: 'prompts', field: 'prompts', key: 'name' },
  'resources/list': { kind: 'resources', field: 'resources', key: 'uri' },
  'resources/templates/list': { kind: 'resourceTemplates', field: 'resourceTemplates', key: 'uriTemplate' },
};

/** The list method that lists a kind. */
export function listMethodOf(kind: CutoverKind): string {
  return Object.entries(CUTOVER_LISTS).find(([, s]) => s.kind === kind)![0];
}

/** The entries of one page of a list result, by the name they are known by. */
export function entriesOf(shape: ListShape, page: JsonObject): Map<string, JsonObject> {
  const items = page[shape.field];
  const out = new Map<string, JsonObject>();
  if (!Array.isArray(items)) return out;
  for (const item of items) if (isJsonObject(item) && typeof item[shape.key] === 'string') out.set(item[shape.key] as string, item);
  return out;
}

export interface MergedList {
  result: JsonObject;
  /** Cut-over items the migrated server did not list: their legacy entries were kept. */
  kept: string[];
}

/**
 * One page of the legacy list with the cut-over items' entries taken from `migrated`. A cut-over
 * item the legacy page lacks is added on the last page (the one without `nextCursor`), so an item
 * that only the migrated server still has is listed too.
 */
export function mergeList(method: string, legacy: JsonObject, migrated: ReadonlyMap<string, JsonObject>, cutover: CutoverItems): MergedList {
  const shape = CUTOVER_LISTS[method];
  const items = shape ? cutover[shape.kind] : [];
  if (!shape || items.length === 0 || !Array.isArray(legacy[shape.field])) return { result: legacy, kept: [] };
  const kept: string[] = [];
  const seen = new Set<string>();
  const merged = (legacy[shape.field] as unknown[]).map((entry) => {
    const name = isJsonObject(entry) ? entry[shape.key] : undefined;
    if (typeof name !== 'string' || !items.includes(name)) return entry;
    seen.add(name);
    const replacement = migrated.get(name);
    if (replacement === undefined) kept.push(name);
    return replacement ?? entry;
  });
  if (legacy['nextCursor'] === undefined)
    for (const name of items) {
      const entry = migrated.get(name);
      if (!seen.has(name) && entry !== undefined) merged.push(entry);
    }
  return { result: { ...legacy, [shape.field]: merged }, kept };
}

/** The cut-over items of each kind that the migrated server's lists (by kind, by name) do not hold. */
export function missingItems(items: CutoverItems, listed: Partial<Record<CutoverKind, ReadonlySet<string>>>): string[] {
  const label: Record<CutoverKind, string> = { tools: 'tool', prompts: 'prompt', resources: 'resource', resourceTemplates: 'resource template' };
  return (Object.keys(label) as CutoverKind[]).flatMap((k) => items[k].filter((item) => !listed[k]?.has(item)).map((item) => `${label[k]} '${item}'`));
}
