// Which interactive calls may share a legacy session. A call whose requests reach the proxy with
// provenance (on its own Streamable HTTP response stream) can always share: each request is tied to
// its call. A request without provenance can only be attributed while its call is alone on the
// session, so what was called (the tool, the prompt, resources/read) is learned as "asks without
// provenance" the first time it does, and is leased a session of its own from then on. Over stdio
// every request is without provenance: a tool shares once it has completed without asking, and a
// tool that asked once is leased exclusively.
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

export interface AskFacts {
  /** The transport ties each server request to its call (Streamable HTTP) when the server lets it. */
  provenance: boolean;
  /** Keys that asked without provenance. */
  asked: ReadonlySet<string>;
  /** Keys that have completed at least once without asking. */
  quiet: ReadonlySet<string>;
}

/**
 * The lease an interactive call takes. A key that asked without provenance: exclusive. Over a
 * transport with provenance: shared. Without provenance (stdio, HTTP+SSE, WebSocket): shared only
 * once the key has completed without asking, so a burst of first calls to a tool that asks is not
 * refused; until then exclusive, as every interactive call was before sessions were shared.
 */
export function interactiveLeaseMode(key: string, facts: AskFacts): LeaseMode {
  if (facts.asked.size >= MAX_LEARNED_KEYS || facts.asked.has(key)) return 'exclusive';
  if (facts.provenance) return 'shared';
  return facts.quiet.has(key) ? 'shared' : 'exclusive';
}

/** What one upstream configuration has learned about its calls. */
export class AskLearner {
  private readonly asked = new Set<string>();
  private readonly quiet = new Set<string>();

  constructor(
    private readonly provenance: boolean,
    private readonly onLearned: (key: string) => void = () => {},
  ) {}

  modeFor(method: string, params: JsonObject | undefined): LeaseMode {
    return interactiveLeaseMode(askKey(method, params), { provenance: this.provenance, asked: this.asked, quiet: this.quiet });
  }

  /** These keys asked without provenance (or may have): exclusive from now on. */
  learn(keys: readonly string[]): void {
    for (const key of keys) {
      if (this.asked.has(key) || this.asked.size >= MAX_LEARNED_KEYS) continue;
      this.asked.add(key);
      this.quiet.delete(key);
      this.onLearned(key);
    }
  }

  /** A call of `key` completed without asking anything. */
  completedQuietly(key: string): void {
    if (!this.asked.has(key) && this.quiet.size < MAX_LEARNED_KEYS) this.quiet.add(key);
  }
}
