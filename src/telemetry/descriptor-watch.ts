// A warn line before the process runs out of descriptors: when every new connection, pipe and
// file starts to fail, nothing gets through any more, so the operator hears of it while there is
// still room. Read from /proc/self (descriptor-use in open-sockets.ts); not watched elsewhere.
import type { Logger } from './logger.js';
import { descriptorUse } from './open-sockets.js';

/** Past this share of the limit: warn. */
export const DESCRIPTOR_WARN_SHARE = 0.8;
/** Back under this share: say so, and warn again on the next rise (no line per check in between). */
export const DESCRIPTOR_CLEAR_SHARE = 0.7;
export const DESCRIPTOR_CHECK_MS = 10_000;

/** What one check says, given whether the last warning still stands. */
export function descriptorAlarm(open: number, limit: number, warned: boolean): 'warn' | 'clear' | undefined {
  if (!Number.isFinite(limit) || limit <= 0) return undefined;
  if (!warned && open >= limit * DESCRIPTOR_WARN_SHARE) return 'warn';
  if (warned && open < limit * DESCRIPTOR_CLEAR_SHARE) return 'clear';
  return undefined;
}

/** Runs `fn` every `ms` until the returned function is called (the process's Clock.every). */
export type Every = (ms: number, fn: () => void) => () => void;

/** Checks every `everyMs` until cancelled. */
export function watchDescriptors(every: Every, log: Logger, everyMs = DESCRIPTOR_CHECK_MS): () => void {
  let warned = false;
  let checking = false;
  return every(everyMs, () => {
    if (checking) return;
    checking = true;
    void descriptorUse()
      .then((use) => {
        if (!use) return;
        const alarm = descriptorAlarm(use.open, use.limit, warned);
        if (alarm === 'warn') {
          warned = true;
          log.warn('open descriptors are past 80% of the limit: new connections, pipes and files will soon fail (docs/operations.md)', use);
        } else if (alarm === 'clear') {
          warned = false;
          log.info('open descriptors are back under 70% of the limit', use);
        }
      })
      .finally(() => {
        checking = false;
      });
  });
}
