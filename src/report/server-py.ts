// The migrated Python server around the handlers: the helpers they share (the answers so far as
// the request_state that MCPServer's RequestStateBoundary seals with AES-GCM on the way out and
// verifies on the way back; the middleware that lets a static resource ask), server.py serving
// them over Streamable HTTP with the legacy server's other tools listed as not migrated, and
// pyproject.toml. Pure: returns the files.
import type { HandlerFlow } from './handler-flow.js';
import { FOLDER, finishModule, handlerModule } from './handlers-py.js';
import type { GeneratedFile } from './handlers-ts.js';
import type { ItemKind } from './migration.js';
import type { Declared } from './model.js';
import { pyComment, pyLiteral, pyStem, pyString, uniqueStems } from './quote.js';

export const PY_SDK_VERSION = '2.3.0';

const MRTR = `# What every migrated handler shares: the answers so far travel as the request_state of the
# SDK's InputRequiredResult; MCPServer's RequestStateBoundary seals it (AES-GCM) before it reaches
# the client and verifies it on the way back, so a handler only reads state it minted.
import json
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Any

from mcp.server.context import CallNext, HandlerResult, ServerMiddleware, ServerRequestContext
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.prompts.base import Prompt, PromptArgument
from mcp.server.mcpserver.tools.base import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase, FuncMetadata
from mcp_types import SERVER_INFO_META_KEY, Implementation, InputRequiredResult, InputResponseRequestParams, ReadResourceRequestParams, ToolAnnotations
from mcp.shared.uri_template import UriTemplate
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import ConfigDict, ValidationError

Flow = Callable[[dict[str, Any], dict[str, Any]], Awaitable[Any]]


def _plain(value: Any) -> Any:
    return value.model_dump(by_alias=True, exclude_none=True, mode="json") if hasattr(value, "model_dump") else value


def resume(ctx: Context | InputResponseRequestParams | None, id: str) -> dict[str, Any]:
    """The answers so far: the state's (minted for this handler), plus this retry's responses to
    the round it asked; responses to anything else are not taken. A handler's Context and a
    request's params carry the same two fields."""
    raw = ctx.request_state if ctx is not None else None
    if not raw:
        return {}
    state = json.loads(raw)
    if state.get("for") != id:
        return {}
    answers: dict[str, Any] = dict(state.get("answers", {}))
    responses = (ctx.input_responses if ctx is not None else None) or {}
    for key in state.get("asked", []):
        if key in responses:
            answers[key] = _plain(responses[key])
    return answers


class _DeclaredArguments(ArgModelBase):
    """A tool's arguments as the client sent them, under their own names (which need not be Python
    names): the tool's handler takes them as one dict."""

    model_config = ConfigDict(extra="allow", arbitrary_types_allowed=True)

    def model_dump_one_level(self) -> dict[str, Any]:
        return {"args": dict(self.model_extra or {})}


def declared_tool(handler: Callable[..., Awaitable[Any]], declared: dict[str, Any]) -> Tool:
    """The tool as the legacy server declared it (name, title, description, input schema, annotations), its
    handler called as handler(args, ctx): MCPServer would otherwise rebuild the schema from the
    function's parameters, which cannot carry every JSON name."""
    annotations = declared.get("annotations")
    # Constructed as declared: a tool declared without a description is listed without one (Tool
    # itself would take "").
    return Tool.model_construct(
        fn=handler,
        name=declared["name"],
        title=declared.get("title"),
        description=declared.get("description"),
        parameters=declared.get("inputSchema", {"type": "object"}),
        fn_metadata=FuncMetadata(arg_model=_DeclaredArguments),
        is_async=True,
        context_kwarg="ctx",
        annotations=ToolAnnotations.model_validate(annotations) if annotations else None,
    )


def declared_prompt(handler: Callable[..., Awaitable[Any]], declared: dict[str, Any]) -> Prompt:
    """The prompt as the legacy server declared it, its handler called as handler(ctx, **args)."""
    return Prompt(
        name=declared["name"],
        description=declared.get("description"),
        arguments=[PromptArgument.model_validate(a) for a in declared.get("arguments", [])],
        fn=handler,
        context_kwarg="ctx",
    )


def ask(id: str, answers: dict[str, Any], input_requests: dict[str, Any]) -> InputRequiredResult:
    state = {"for": id, "answers": answers, "asked": list(input_requests)}
    return InputRequiredResult.model_validate({"inputRequests": input_requests, "requestState": json.dumps(state)})


def answered(answers: dict[str, Any], keys: list[str]) -> bool:
    return all(k in answers for k in keys)


def taken(answers: dict[str, Any], branches: list[list[str]]) -> int | None:
    """The branch already taken (its questions have answers), so a retry goes the same way."""
    for i, keys in enumerate(branches):
        if any(k in answers for k in keys):
            return i
    return None


def action_of(answer: Any) -> str:
    if answer is None:
        return "unanswered"
    return answer.get("action", "accept") if isinstance(answer, dict) else "accept"


def read_uri(ctx: Context | None, template: str, variables: dict[str, Any]) -> str:
    """The URI a templated resource's read asked for, which the SDK hands its function only as the
    template's variables: the request's own URI when it is this read's (a read nested in another
    request, or made in process, has none of its own), else the template expanded."""
    parsed = UriTemplate.parse(template)
    try:
        params = ctx.request_context.params if ctx is not None else None
    except ValueError:
        # MCPServer.read_resource() in process: a Context without a request.
        params = None
    uri = params.get("uri") if params else None
    if isinstance(uri, str) and parsed.match(uri) == variables:
        return uri
    return parsed.expand(variables)


# MCPServer calls a static resource's function without a Context, so the function cannot ask.
# A middleware can: it runs inside the SDK's RequestStateBoundary (request_state arrives opened
# and leaves sealed) and sees every read of the URI with its input_responses. A round that asks
# is answered there; once finish() has answered, the read goes on to the SDK, whose call of the
# resource's function is handed finish()'s value, so the ReadResourceResult is shaped as for any
# static resource (text or blob, the registered MIME type).
_finished: ContextVar[tuple[str, Any] | None] = ContextVar("mrtr_finished", default=None)


def asking_static_resource(server: MCPServer, uri: str, id: str, flow: Flow) -> ServerMiddleware[Any]:
    """The middleware that runs flow for every resources/read of uri; other requests pass."""

    async def middleware(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        if ctx.method != "resources/read" or not ctx.params or ctx.params.get("uri") != uri:
            return await call_next(ctx)
        if ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS:
            # A client from before 2026-07-28 cannot be asked mid-call: finished() says so.
            return await call_next(ctx)
        try:
            params = ReadResourceRequestParams.model_validate(ctx.params, by_name=False)
        except ValidationError:
            # Malformed params: the SDK refuses them as it does for any read.
            return await call_next(ctx)
        outcome = await flow({"uri": uri}, resume(params, id))
        if isinstance(outcome, InputRequiredResult):
            # The SDK stamps its serverInfo on the results it shapes; one answered here carries it too.
            return outcome.model_copy(update={"meta": {SERVER_INFO_META_KEY: _server_info(server)}})
        token = _finished.set((uri, outcome))
        try:
            return await call_next(ctx)
        finally:
            _finished.reset(token)

    return middleware


def _server_info(server: MCPServer) -> dict[str, Any]:
    info = Implementation(
        name=server.name,
        version=server.version,
        title=server.title,
        description=server.description,
        website_url=server.website_url,
        icons=server.icons,
    )
    return info.model_dump(by_alias=True, exclude_none=True, mode="json")


def finished(uri: str) -> Any:
    """What finish() made of this read's answers, handed over by asking_static_resource. Reached
    any other way (a client from before 2026-07-28, an in-process read_resource()), the resource
    refuses: its answer needs the client's answers."""
    done = _finished.get()
    if done is None or done[0] != uri:
        raise RuntimeError(f"{uri} asks the client before answering: only a 2026-07-28 resources/read can read it")
    return done[1]

`;

function serverModule(d: Declared | undefined, flows: readonly HandlerFlow[], upstream: string, names: ReadonlyMap<HandlerFlow, string>): string {
  const migrated = (kind: ItemKind, name: string) => flows.some((f) => f.kind === kind && f.name === name);
  // Listed as the legacy server declared them: description, input schema, annotations.
  const others = (d?.tools ?? [])
    .filter((t) => !migrated('tool', t.name))
    .map((t) => ({
      name: t.name,
      ...(t.title === undefined ? {} : { title: t.title }),
      ...(t.description === undefined ? {} : { description: t.description }),
      inputSchema: t.inputSchema ?? { type: 'object' },
      ...(t.annotations ? { annotations: t.annotations } : {}),
    }));
  const name = `${d?.server?.name ?? upstream}-migrated`;
  const imported = flows.map(
    (f, i) => `from handlers.${FOLDER[f.kind]}.${names.get(f)} import ${f.kind === 'tool' ? `tool as tool${i}` : `register as register${i}`}`,
  );
  const tools = flows.flatMap((f, i) => (f.kind === 'tool' ? [`tool${i}()`] : []));
  return `${pyComment([
    `The 2026-07-28 server that replaces the legacy upstream ${pyString(upstream)}: the migrated handlers and,`,
    'listed as not migrated, the tools the audit never saw ask. Streamable HTTP on HOST:PORT/mcp',
    '(default 127.0.0.1:3000); MRTR_STATE_KEY seals request_state and must be the same on every instance.',
  ])}
import os
import sys
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.request_state import RequestStateSecurity
from mcp_types import CallToolResult

from mrtr import declared_tool

${imported.join('\n')}

NOT_MIGRATED: list[dict[str, Any]] = ${pyLiteral(others)}


def build() -> MCPServer:
    key = os.environ.get("MRTR_STATE_KEY")
    if not key:
        # One process then serves every round of a call: fine for one instance, not for several.
        print("MRTR_STATE_KEY unset: request_state is sealed with a per-process key", file=sys.stderr)
    security = RequestStateSecurity(keys=[key]) if key else RequestStateSecurity.ephemeral()
    tools = [${tools.join(', ')}] + [declared_tool(_not_migrated(t["name"]), t) for t in NOT_MIGRATED]
    server = MCPServer(${pyString(name)}, request_state_security=security, tools=tools)
${flows.flatMap((f, i) => (f.kind === 'tool' ? [] : [`    register${i}(server)`])).join('\n')}
    return server


def _not_migrated(name: str) -> Any:
    async def handler(args: dict[str, Any], ctx: Any = None) -> CallToolResult:
        return CallToolResult.model_validate({"content": [{"type": "text", "text": f"{name}: not migrated yet"}], "isError": True})

    return handler


if __name__ == "__main__":
    import anyio

    host = os.environ.get("HOST", "127.0.0.1")
    port = int(os.environ.get("PORT", "3000"))
    print(f"listening on http://{host}:{port}/mcp", file=sys.stderr, flush=True)
    anyio.run(lambda: build().run_streamable_http_async(host=host, port=port))
`;
}

function pyproject(name: string): string {
  return `[project]
name = ${pyString(pyStem(name).replace(/_/g, '-'))}
version = "0.1.0"
requires-python = ">=3.11"
dependencies = ["mcp==${PY_SDK_VERSION}"]
`;
}

/** Every file of the migrated Python server for one upstream. */
export function pythonServer(upstream: string, declared: Declared | undefined, flows: readonly HandlerFlow[]): GeneratedFile[] {
  const names = uniqueStems(
    flows,
    (f) => f.name,
    (f) => f.kind,
    { stem: pyStem, finishSuffix: '_finish' },
  );
  const files: GeneratedFile[] = [
    { path: 'pyproject.toml', text: pyproject(`${declared?.server?.name ?? upstream}-migrated`) },
    { path: 'mrtr.py', text: MRTR },
    { path: 'server.py', text: serverModule(declared, flows, upstream, names) },
    { path: 'handlers/__init__.py', text: '' },
  ];
  for (const folder of new Set(flows.map((f) => FOLDER[f.kind]))) files.push({ path: `handlers/${folder}/__init__.py`, text: '' });
  for (const flow of flows) {
    const base = `handlers/${FOLDER[flow.kind]}/${names.get(flow)}`;
    const { text, c } = handlerModule(flow, declared, names.get(flow)!);
    files.push({ path: `${base}.py`, text }, { path: `${base}_finish.py`, text: finishModule(flow, c), author: true });
  }
  return files;
}
