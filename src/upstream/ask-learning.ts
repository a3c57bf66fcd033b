// Which interactive calls may share a legacy session. A call whose requests reach the proxy with
// provenance (on its own Streamable HTTP response stream) can always share: each request is tied to
// its call. A request without provenance can only be attributed while its call is alone on the
// session, so what was called (the tool, the prompt, resources/read) is learned as "asks without
// provenance" the first time it does, and is leased a session of its own from then on. Over stdio
// every request is without provenance, so this is "a tool that asked once is leased exclusively".
import type { JsonObject } from '../protocol/json.js';
import type { LeaseMode } from './lease.js';

/** Learned keys kept at most; past it every interactive call is leased exclusively (a safe fallback). */
export const MAX_LEARNED_KEYS = 10_000;

/**
 * What an interactive call is learned under: `tool:NAME`, `prompt:NAME`, and one key for every
 * `resources/read` (URIs are unbounded, and servers rarely ask during a read).
 */
export function askKey(method: string, params: JsonObject | undefined): string {
  const name = params?.['name'];
  if (method === 'tools/call') return `tool:${typeof name === 'string' ? name : ''}`;
  if (method === 'prompts/get') return `prompt:${typeof name === 'string' ? name : ''}`;
  return method;
}

/** The lease an interactive call takes, from what is known of the keys that asked without provenance. */
export function interactiveLeaseMode(key: string, learned: ReadonlySet<string>): LeaseMode {
  if (learned.size >= MAX_LEARNED_KEYS) return 'exclusive';
  return learned.has(key) ? 'exclusive' : 'shared';
}

/** The keys of one upstream configuration that asked without provenance. */
export class AskLearner {
  private readonly learned = new Set<string>();

  constructor(private readonly onLearned: (key: string) => void = () => {}) {}

  modeFor(method: string, params: JsonObject | undefined): LeaseMode {
    return interactiveLeaseMode(askKey(method, params), this.learned);
  }

  learn(keys: readonly string[]): void {
    for (const key of keys) {
      if (this.learned.has(key) || this.learned.size >= MAX_LEARNED_KEYS) continue;
      this.learned.add(key);
      this.onLearned(key);
    }
  }

  get size(): number {
    return this.learned.size;
  }
}
