// What the proxy learns an interactive call's behaviour under: its tool, its prompt, or one key for
// every `resources/read` (URIs are unbounded, and servers rarely ask during a read).
import type { JsonObject } from './json.js';

/** `tool:NAME`, `prompt:NAME`, or the method. */
export function askKey(method: string, params: JsonObject | undefined): string {
  const name = params?.['name'];
  if (method === 'tools/call') return `tool:${typeof name === 'string' ? name : ''}`;
  if (method === 'prompts/get') return `prompt:${typeof name === 'string' ? name : ''}`;
  return method;
}
