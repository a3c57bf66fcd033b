// What either kind of task asks of the bridge before it runs: a place in the waiting share, and
// what the task keeps of the request that created it.
import { ProxyError } from '../../protocol/errors.js';
import type { BoundCall } from '../front-call.js';
import type { SessionLease } from '../ports.js';
import type { TaskFront } from '../tasks/task-table.js';
import type { ModeContext } from './mode.js';

/**
 * A task holds its legacy session for as long as it runs, so it takes a place in the waiting share
 * (--waiting-share), as a call waiting for its client does: past the share it is refused at once,
 * and the rest of the sessions stay free for other calls. `lease`: taken now; without, only
 * whether one more would fit (a task about to acquire its session).
 */
export function holdForTask(ctx: ModeContext, lease?: SessionLease): void {
  const fits = lease === undefined ? (ctx.opts.sessions.waitingShare?.().room ?? true) : lease.markWaiting();
  if (fits) return;
  lease?.release();
  throw taskShareFull();
}

/** A task refused because the waiting share is used up. */
export function taskShareFull(): ProxyError {
  return new ProxyError(
    'overloaded',
    'waiting_limit',
    'too many tasks and calls waiting for input hold legacy sessions (--waiting-share of --max-sessions), so this task was not started; try again later',
  );
}

/** What a task keeps of the request that created it. */
export function taskFront(ctx: ModeContext, front: BoundCall): TaskFront {
  return {
    principal: front.principal,
    capabilities: front.capabilities,
    tool: String(front.params['name'] ?? ''),
    origin: ctx.telemetry.traceOrigin(front.record),
  };
}
