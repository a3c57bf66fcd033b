// Builds the 2026-07-28 front Server (official v2 SDK) for one request or connection. The SDK does
// the envelope, header, capability and result-shape work; every handler here is a thin hand-off to
// the bridge (interactive methods) or the upstream forwarder (everything else).
import { McpServer, type ServerContext } from '@modelcontextprotocol/server';
import type { Bridge } from '../bridge/bridge.js';
import { legacyCapabilitiesFor, type FrontCapabilities } from '../protocol/capabilities.js';
import { isJsonObject, type JsonObject } from '../protocol/json.js';
import type { InteractiveMethod } from '../protocol/methods.js';
import { upstreamParams } from '../protocol/params.js';
import type { RequestIdentity } from '../state/fingerprint.js';
import type { FrontRequest } from '../telemetry/front-request.js';
import type { Logger } from '../telemetry/logger.js';
import type { UpstreamInfo } from '../upstream/session.js';
import type { Upstream } from '../upstream/upstream.js';
import { PRINCIPAL_KEY } from './auth-gate.js';
import { registerTaskMethods } from './task-methods.js';
import { toProtocolError } from './wire-errors.js';
import { legacyRunsToolTasks, TASKS_EXTENSION } from '../bridge/tasks/task-wire.js';
import type { OpenedStates } from './opened-states.js';

export interface FrontDeps {
  bridge: Bridge;
  upstream: Upstream;
  log: Logger;
  /** The principal of a request nobody authenticated: `anonymous` over HTTP, the local user on stdio. */
  principal: string;
  /** Told of each forwarded request once it was answered (the shadow comparison); must not block. */
  forwards?: ForwardObserver | undefined;
  /** The telemetry record of the request a handler serves (the front hands it down: official-front.ts, stdio.ts). */
  recordOf?: ((ctx: ServerContext) => FrontRequest | undefined) | undefined;
  /** requestStates the route already opened (to route them), for the bridge to check instead of opening again. */
  openedStates?: OpenedStates | undefined;
  /** A list as the client sees it, given the legacy server's (a cutover puts the migrated server's entries in it). */
  mergeList?: ((method: string, result: JsonObject, capabilities: JsonObject, signal: AbortSignal) => Promise<JsonObject>) | undefined;
}

/** Who hears of forwarded requests (lists, reads) and their outcome: the code the client got. */
export interface ForwardObserver {
  onForwarded(e: { method: string; params: JsonObject | undefined; capabilities: JsonObject; result?: JsonObject; error?: { code: number } }): void;
}

const PASSTHROUGH: Record<string, readonly string[]> = {
  tools: ['tools/list'],
  prompts: ['prompts/list'],
  resources: ['resources/list', 'resources/templates/list'],
  completions: ['completion/complete'],
};
const INTERACTIVE: Record<string, InteractiveMethod> = { tools: 'tools/call', prompts: 'prompts/get', resources: 'resources/read' };

/**
 * What the front advertises: the legacy server's capabilities, with the tasks extension when the
 * legacy server runs tools as tasks (its 2025-11-25 tasks capability goes: the 2026-07-28 Tool has
 * no task support field, the server decides per call, see bridge/tasks/task-wire.ts) or the proxy
 * runs some of its tools as tasks of its own (`hostsTasks`).
 *
 * `logging` always: legacy servers log during calls without declaring it (mcp 1.x FastMCP declares
 * it only with a logging/setLevel handler, and registers none), their own clients show those lines,
 * and the proxy relays whatever comes, filtered by the request's logLevel (docs/compatibility.md).
 */
export function frontCapabilities(info: UpstreamInfo, hostsTasks = false): JsonObject {
  const { tasks: _tasks, ...declared } = info.capabilities;
  const rest: JsonObject = { logging: {}, ...declared };
  if (!runsTasks(info, hostsTasks)) return rest;
  const extensions = isJsonObject(rest['extensions']) ? rest['extensions'] : {};
  return { ...rest, extensions: { ...extensions, [TASKS_EXTENSION]: {} } };
}

/**
 * An McpServer with no tools of its own: the low-level handlers below serve everything. It exists
 * because the SDK's HTTP entry checks SEP-2243 `Mcp-Param-*` headers only for McpServer products,
 * asking `toolInputSchemaJson` for the called tool; this one answers with the legacy tool's schema.
 */
class RelayMcpServer extends McpServer {
  constructor(
    info: UpstreamInfo,
    private readonly schemaOf: (tool: string) => Record<string, unknown> | undefined,
  ) {
    // No capabilities here: given them, McpServer would install its own tools/resources/prompts handlers.
    super(info.serverInfo, info.instructions === undefined ? {} : { instructions: info.instructions });
  }

  override toolInputSchemaJson(name: string): Record<string, unknown> | undefined {
    return this.schemaOf(name);
  }
}

/** Whether this front serves the tasks extension. */
function runsTasks(info: UpstreamInfo, hostsTasks: boolean): boolean {
  return hostsTasks || legacyRunsToolTasks(info.capabilities);
}

export function createFrontServer(info: UpstreamInfo, deps: FrontDeps): McpServer {
  const capabilities = frontCapabilities(info, deps.bridge.hostsTasks);
  const mcp = new RelayMcpServer(info, (tool) => deps.upstream.toolSchemas.get(tool));
  const server = mcp.server;
  server.registerCapabilities(capabilities);
  const handle = server.setRequestHandler.bind(server) as (
    method: string,
    h: (req: { params?: JsonObject }, ctx: ServerContext) => Promise<JsonObject>,
  ) => void;

  for (const [capability, methods] of Object.entries(PASSTHROUGH)) {
    if (!(capability in capabilities)) continue;
    for (const method of methods) handle(method, (req, ctx) => forward(method, req.params, ctx, deps));
  }
  for (const [capability, method] of Object.entries(INTERACTIVE)) {
    if (!(capability in capabilities)) continue;
    handle(method, (req, ctx) => interactiveFromSdk(method, req.params ?? {}, ctx, deps));
  }
  if (runsTasks(info, deps.bridge.hostsTasks)) {
    registerTaskMethods(mcp, {
      tasks: deps.bridge.taskAccess(),
      log: deps.log,
      principalOf: (ctx) => principalOf(ctx) ?? deps.principal,
      capabilitiesOf: clientCapabilities,
      recordOf: deps.recordOf,
    });
  }
  // Vendor methods go through untouched.
  server.fallbackRequestHandler = async (req, ctx) => forward(req.method, req.params as JsonObject | undefined, ctx, deps);
  return mcp;
}

/** Reads one reserved `io.modelcontextprotocol/*` envelope key the SDK lifted off `_meta`. */
function envelope(ctx: ServerContext, key: 'clientCapabilities' | 'logLevel'): unknown {
  return (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[`io.modelcontextprotocol/${key}`];
}

function clientCapabilities(ctx: ServerContext): FrontCapabilities {
  const caps = envelope(ctx, 'clientCapabilities');
  return (typeof caps === 'object' && caps !== null ? caps : {}) as FrontCapabilities;
}

async function forward(method: string, params: JsonObject | undefined, ctx: ServerContext, deps: FrontDeps): Promise<JsonObject> {
  const record = deps.recordOf?.(ctx);
  record?.served('passthrough');
  const capabilities = clientCapabilities(ctx);
  const sent = upstreamParams(params);
  try {
    const principal = principalOf(ctx) ?? deps.principal;
    const legacy = await deps.upstream.forward(method, sent, legacyCapabilitiesFor(capabilities), ctx.mcpReq.signal, record, principal);
    const result = deps.mergeList ? await deps.mergeList(method, legacy, capabilities as JsonObject, ctx.mcpReq.signal) : legacy;
    deps.forwards?.onForwarded({ method, params: sent, capabilities: capabilities as JsonObject, result });
    return result;
  } catch (err) {
    const error = toProtocolError(err, deps.log, record);
    deps.forwards?.onForwarded({ method, params: sent, capabilities: capabilities as JsonObject, error: { code: error.code } });
    throw error;
  }
}

/** One interactive front request as either front path hands it over: the envelope already read. */
export interface InteractiveRequest {
  capabilities: FrontCapabilities;
  /** The authenticated principal, if the auth gate set one. */
  principal: string | undefined;
  requestState: string | undefined;
  inputResponses: unknown;
  droppedInputKeys: readonly string[];
  progressToken?: string | number;
  logLevel?: string;
  notify: (n: { method: string; params: JsonObject }) => Promise<void>;
  signal: AbortSignal;
  /** The request's telemetry record, when telemetry tracks it. */
  record: FrontRequest | undefined;
}

async function interactiveFromSdk(method: InteractiveMethod, params: JsonObject, ctx: ServerContext, deps: FrontDeps): Promise<JsonObject> {
  const record = deps.recordOf?.(ctx);
  const meta = ctx.mcpReq._meta as JsonObject | undefined;
  const progressToken = meta?.['progressToken'];
  const level = envelope(ctx, 'logLevel');
  return runInteractive(
    method,
    params,
    {
      capabilities: clientCapabilities(ctx),
      principal: principalOf(ctx),
      requestState: ctx.mcpReq.requestState<string>(),
      inputResponses: ctx.mcpReq.inputResponses,
      droppedInputKeys: ctx.mcpReq.droppedInputResponseKeys ?? [],
      ...(typeof progressToken === 'string' || typeof progressToken === 'number' ? { progressToken } : {}),
      ...(typeof level === 'string' ? { logLevel: level } : {}),
      notify: (n) => ctx.mcpReq.notify(n as never),
      signal: ctx.mcpReq.signal,
      record,
    },
    deps,
  ).catch((err: unknown) => {
    throw toProtocolError(err, deps.log, record);
  });
}

/**
 * Runs one interactive request through the bridge, which decides how (a call, the legacy server's
 * task, the proxy's task). Errors are thrown as the bridge threw them: each front path turns them
 * into its wire error.
 */
export async function runInteractive(method: InteractiveMethod, params: JsonObject, req: InteractiveRequest, deps: FrontDeps): Promise<JsonObject> {
  req.record?.served('interactive');
  const result = await deps.bridge.call({
    method,
    params: upstreamParams(params) ?? {},
    identity: identityOf(method, params),
    capabilities: req.capabilities,
    principal: req.principal ?? deps.principal,
    requestState: req.requestState,
    openedState: deps.openedStates?.get(req.requestState),
    inputResponses: req.inputResponses,
    droppedInputKeys: req.droppedInputKeys,
    sink: {
      ...(req.progressToken === undefined ? {} : { progressToken: req.progressToken }),
      ...(req.logLevel === undefined ? {} : { logLevel: req.logLevel }),
      notify: req.notify,
    },
    signal: req.signal,
    record: req.record,
  });
  return withContent(method, result);
}

/** A 2026-07-28 tools/call result must carry `content`; some legacy servers omit it. A task handle has none. */
function withContent(method: InteractiveMethod, result: JsonObject): JsonObject {
  const kind = result['resultType'];
  if (method === 'tools/call' && kind !== 'input_required' && kind !== 'task' && !Array.isArray(result['content'])) return { ...result, content: [] };
  return result;
}

/** The principal the auth gate put on the HTTP request (see front/auth-gate.ts). */
function principalOf(ctx: ServerContext): string | undefined {
  const p = ctx.http?.authInfo?.extra?.[PRINCIPAL_KEY];
  return typeof p === 'string' ? p : undefined;
}

function identityOf(method: InteractiveMethod, params: JsonObject): RequestIdentity {
  if (method === 'resources/read') return { method, target: String(params['uri'] ?? '') };
  return { method, target: String(params['name'] ?? ''), args: params['arguments'] ?? {} };
}
