// What a front reaches of a bridge's tasks (Bridge.taskAccess): the tasks extension's methods and
// the changes of the tasks this instance runs. Nothing else of the task table leaves the bridge.
import type { JsonObject } from '../../protocol/json.js';
import type { TaskView } from './task-wire.js';

export interface TaskAccess {
  /** tasks/get. */
  get(taskId: unknown, principal: string): Promise<JsonObject>;
  /** tasks/update: answers to the task's questions. */
  update(taskId: unknown, principal: string, inputResponses: unknown, dropped: readonly string[]): Promise<JsonObject>;
  /** tasks/cancel. */
  cancel(taskId: unknown, principal: string): Promise<JsonObject>;
  /** A task of this instance as `principal` may watch it (subscriptions/listen); undefined for anything else. */
  watchable(taskId: unknown, principal: string): Promise<TaskView | undefined>;
  /** Hears every change of every task of this instance until the returned function is called. */
  watch(listener: (view: TaskView) => void): () => void;
}
