// What the bridge learns of replayed calls: the tools (prompts, reads) whose questions changed
// between two runs of one call (choices taken from live data: free slots, search hits). Such a call
// can never be answered from its record, so in `auto` their later calls are held from the start.
// Learned per bridge (one upstream), in memory: another instance, or this one after a restart,
// learns it again from one call that falls back to hold.
import { askKey } from '../protocol/ask-key.js';
import type { JsonObject } from '../protocol/json.js';

/** Keys kept at most; past it a new key is not learned, and its calls fall back to hold one by one. */
export const MAX_UNSTABLE_KEYS = 10_000;

export class UnstableQuestions {
  private readonly keys = new Set<string>();

  constructor(private readonly max = MAX_UNSTABLE_KEYS) {}

  has(method: string, params: JsonObject | undefined): boolean {
    return this.keys.has(askKey(method, params));
  }

  /** Learns that a call of this key asked another question than its record; true when it was new. */
  learn(method: string, params: JsonObject | undefined): boolean {
    const key = askKey(method, params);
    if (this.keys.has(key) || this.keys.size >= this.max) return false;
    this.keys.add(key);
    return true;
  }
}
