// The tasks extension's methods on the 2026-07-28 front (tasks/get, tasks/update, tasks/cancel),
// registered with the official server's custom-method form, as its own extensions are: the SDK then
// checks `Mcp-Name` against `params.taskId` and parses the params; the proxy gates on the extension
// and hands over to the bridge's tasks (Bridge.taskAccess). tasks/result and tasks/list stay
// unregistered: the SDK answers them -32601, as the extension says.
import type { McpServer, ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { TaskAccess } from '../bridge/tasks/task-access.js';
import { declaresTasks, tasksRequired } from '../bridge/tasks/task-wire.js';
import { partitionInputResponses } from '../protocol/answers.js';
import type { FrontCapabilities } from '../protocol/capabilities.js';
import { ProxyError } from '../protocol/errors.js';
import { isJsonObject, type JsonObject } from '../protocol/json.js';
import type { Logger } from '../telemetry/logger.js';
import type { FrontRequest } from '../telemetry/front-request.js';
import { toProtocolError } from './wire-errors.js';

const TaskParams = z.looseObject({ taskId: z.string() });
const UpdateParams = z.looseObject({ taskId: z.string(), inputResponses: z.unknown().optional() });

export interface TaskMethodDeps {
  tasks: TaskAccess;
  log: Logger;
  /** The principal of the request (authenticated, or the front's default). */
  principalOf(ctx: ServerContext): string;
  capabilitiesOf(ctx: ServerContext): FrontCapabilities;
  recordOf?: ((ctx: ServerContext) => FrontRequest | undefined) | undefined;
}

export function registerTaskMethods(mcp: McpServer, deps: TaskMethodDeps): void {
  const server = mcp.server;
  const serve = (ctx: ServerContext, work: (principal: string) => Promise<JsonObject>): Promise<JsonObject> => {
    const record = deps.recordOf?.(ctx);
    record?.served('task');
    return (async () => {
      if (!declaresTasks(deps.capabilitiesOf(ctx))) {
        throw tasksRequired('this method');
      }
      return work(deps.principalOf(ctx));
    })().catch((err: unknown) => {
      throw toProtocolError(err, deps.log, record);
    });
  };
  server.setRequestHandler('tasks/get', { params: TaskParams }, (params, ctx) => serve(ctx, (p) => deps.tasks.get(params.taskId, p)));
  server.setRequestHandler('tasks/cancel', { params: TaskParams }, (params, ctx) => serve(ctx, (p) => deps.tasks.cancel(params.taskId, p)));
  server.setRequestHandler('tasks/update', { params: UpdateParams }, (params, ctx) =>
    serve(ctx, (p) => {
      if (params.inputResponses !== undefined && !isJsonObject(params.inputResponses)) {
        throw new ProxyError('input_invalid', 'input_responses_invalid', 'inputResponses must be an object keyed by the inputRequests keys');
      }
      // The SDK lifts inputResponses off the params of the methods it knows; here they may still be in place.
      const given = params.inputResponses !== undefined ? partitionInputResponses(params.inputResponses) : undefined;
      const responses = given?.accepted ?? ctx.mcpReq.inputResponses ?? {};
      const dropped = given?.dropped ?? ctx.mcpReq.droppedInputResponseKeys ?? [];
      return deps.tasks.update(params.taskId, p, responses, dropped);
    }),
  );
}
