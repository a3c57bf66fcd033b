// What a proxy keeps of finished tasks, so that neither one task nor one principal can make it hold
// without bound (in memory, and in the task store when there is one):
// - a task's result larger than --max-task-result-bytes is not kept: the task ends `failed`, saying so;
// - a principal keeps at most --max-finished-tasks finished tasks and --max-finished-task-bytes of
//   their results (`anonymous`, every unauthenticated caller, included): past either, its oldest
//   finished tasks are dropped, as if their ttl had passed. New tasks are never refused for it: the
//   client that did not read a result in time loses it, not the one that asks now.
// Pure.
import { JSONRPC } from '../../protocol/errors.js';
import type { TaskView } from './task-wire.js';

export interface TaskBounds {
  maxResultBytes: number;
  maxFinished: number;
  maxFinishedBytes: number;
}

/** The defaults of the three limits (config/limits.ts). */
export const DEFAULT_TASK_BOUNDS: TaskBounds = { maxResultBytes: 2 * 1024 * 1024, maxFinished: 64, maxFinishedBytes: 32 * 1024 * 1024 };

/** The bytes a finished task's inlined result or error takes (as JSON). */
export function resultBytes(view: Pick<TaskView, 'result' | 'error'>): number {
  const kept = view.result ?? view.error;
  return kept === undefined ? 0 : Buffer.byteLength(JSON.stringify(kept));
}

/** The view a finished task is kept as: itself, or `failed` when its result is over `maxResultBytes`. */
export function keptView(view: TaskView, bytes: number, maxResultBytes: number): TaskView {
  if (view.status !== 'completed' || bytes <= maxResultBytes) return view;
  const { result: _dropped, inputRequests: _open, ...rest } = view;
  return {
    ...rest,
    status: 'failed',
    error: {
      code: JSONRPC.INTERNAL_ERROR,
      message: `the task's result (${bytes} bytes) is larger than the proxy keeps for a task (--max-task-result-bytes ${maxResultBytes})`,
    },
  };
}

export interface Finished {
  handle: string;
  endedAt: number;
  bytes: number;
}

/** Of one principal's finished tasks, the handles to drop (oldest first) so that the rest are within the bounds; the newest is always kept. */
export function finishedToDrop(finished: readonly Finished[], bounds: Pick<TaskBounds, 'maxFinished' | 'maxFinishedBytes'>): string[] {
  const oldestFirst = [...finished].sort((a, b) => a.endedAt - b.endedAt);
  let count = oldestFirst.length;
  let bytes = oldestFirst.reduce((sum, f) => sum + f.bytes, 0);
  const drop: string[] = [];
  for (const f of oldestFirst.slice(0, -1)) {
    if (count <= bounds.maxFinished && bytes <= bounds.maxFinishedBytes) break;
    drop.push(f.handle);
    count--;
    bytes -= f.bytes;
  }
  return drop;
}
