// The task table of one bridge, built from the bridge's options: the limits it reads at each
// task's end (a reload applies), the operator's roots, where a task's notifications are counted.
import type { BridgeLimits, BridgeOptions } from '../front-call.js';
import type { DropNotification } from '../interaction-types.js';
import { DEFAULT_TASK_BOUNDS } from './task-bounds.js';
import { TaskTable } from './task-table.js';

export function bridgeTaskTable(opts: BridgeOptions, limits: () => BridgeLimits, dropNotification: DropNotification): TaskTable {
  return new TaskTable({
    sealer: opts.sealer,
    instance: opts.instance,
    upstream: opts.upstream,
    advertiseUrl: opts.advertiseUrl,
    store: opts.taskStore,
    observer: opts.taskObserver,
    operatorRoots: () => opts.sessions.operatorRoots(),
    clock: opts.clock,
    log: opts.log,
    bounds: () => {
      const l = limits();
      return {
        maxResultBytes: l.maxTaskResultBytes ?? DEFAULT_TASK_BOUNDS.maxResultBytes,
        maxFinished: l.maxFinishedTasks ?? DEFAULT_TASK_BOUNDS.maxFinished,
        maxFinishedBytes: l.maxFinishedTaskBytes ?? DEFAULT_TASK_BOUNDS.maxFinishedBytes,
      };
    },
    dropNotification,
  });
}
