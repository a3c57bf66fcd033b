// Which requests a shadow compares, and with which params the candidate is asked. Only the listed
// read-only methods and the tools listed by name; a list page after the first is skipped (cursors
// are the primary's own). The candidate gets the target params only, never `_meta`. Pure.
import type { ShadowConfig } from '../config/shadow.js';
import { isJsonObject, type JsonObject } from '../protocol/json.js';

export type Eligibility = { kind: 'no' } | { kind: 'skip'; why: string } | { kind: 'yes'; params: JsonObject };

export function eligibility(shadow: Pick<ShadowConfig, 'tools' | 'methods'>, method: string, params: JsonObject | undefined): Eligibility {
  const p = params ?? {};
  if (method === 'tools/call') {
    const name = p['name'];
    if (typeof name !== 'string' || !shadow.tools.includes(name)) return { kind: 'no' };
    return { kind: 'yes', params: withArguments({ name }, p) };
  }
  if (!(shadow.methods as readonly string[]).includes(method)) return { kind: 'no' };
  if (method === 'prompts/get') return { kind: 'yes', params: withArguments({ name: p['name'] }, p) };
  if (method === 'resources/read') return { kind: 'yes', params: { uri: p['uri'] } };
  if (p['cursor'] !== undefined) return { kind: 'skip', why: 'a later page (the cursor is the primary server’s)' };
  return { kind: 'yes', params: {} };
}

function withArguments(base: JsonObject, p: JsonObject): JsonObject {
  return isJsonObject(p['arguments']) ? { ...base, arguments: p['arguments'] } : base;
}
