// The migrated server in Python for the official 2026-07-28 SDK (`mcp` 2.x, MCPServer): the same
// flows as the TypeScript server, each handler returning the SDK's `InputRequiredResult` with the
// answers so far as its `request_state`, which the SDK's RequestStateBoundary seals (AES-GCM with
// MRTR_STATE_KEY) on the way out and verifies on the way back; each ends in the author's finish().
import { endingsOf, fileNames, groupByWhen, type FlowEdge, type FlowQuestion, type FlowStep, type HandlerFlow } from './handler-flow.js';
import type { GeneratedFile } from './handlers-ts.js';
import type { ItemKind } from './migration.js';
import { schemaFromShape } from './migration.js';
import type { Declared } from './model.js';

export const PY_SDK_VERSION = '2.3.0';

const FOLDER: Record<ItemKind, string> = { tool: 'tools', prompt: 'prompts', resource: 'resources' };

/** A Python module name for a tool name or URI. */
export function moduleOf(name: string): string {
  const s = name
    .replace(/^[a-z]+:\/\//i, '')
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
  return s === '' || /^[0-9]/.test(s) ? `item_${s}` : s;
}

/** A JSON value as a Python literal. */
export function py(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number' || typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(py).join(', ')}]`;
  return `{${Object.entries(v as Record<string, unknown>)
    .map(([k, x]) => `${JSON.stringify(k)}: ${py(x)}`)
    .join(', ')}}`;
}

const comment = (lines: readonly string[], indent = '') => lines.map((l) => `${indent}# ${l}`.trimEnd()).join('\n');

interface Ctx {
  flow: HandlerFlow;
  choices: string[];
  sampling: boolean;
}

function request(q: FlowQuestion, c: Ctx): { code: string; notes: string[] } {
  const question = q.question as Record<string, unknown> | undefined;
  const notes: string[] = [];
  if (q.messages.length > 1)
    notes.push(
      `the message varied between calls: ${q.messages
        .slice(0, 3)
        .map((m) => JSON.stringify(m))
        .join(' / ')}`,
    );
  const message = typeof question?.['message'] === 'string' ? question['message'] : 'TODO: the message (not audited)';
  if (q.method === 'elicitation/create' && q.elicitationMode === 'url') {
    const url = typeof question?.['url'] === 'string' && question['url'] ? question['url'] : 'https://example.invalid/TODO';
    notes.push('the audit keeps the URL without its query: add the per-call part here');
    return { code: py({ method: 'elicitation/create', params: { mode: 'url', message, url } }), notes };
  }
  if (q.method === 'elicitation/create') {
    let schema = question?.['requestedSchema'];
    if (schema === undefined) {
      const s = schemaFromShape(q.schema ?? { properties: {} }) as { properties: Record<string, Record<string, unknown>> };
      for (const p of Object.values(s.properties)) delete p['enumOptions'];
      schema = s;
      notes.push('audited without --audit-questions: the schema is rebuilt from its shape');
    }
    return { code: py({ method: 'elicitation/create', params: { mode: 'form', message, requestedSchema: schema } }), notes };
  }
  if (q.method === 'sampling/createMessage') {
    c.sampling = true;
    const params = { ...((question?.['params'] as Record<string, unknown> | undefined) ?? {}) };
    const roles = ((params['messages'] as Array<{ role: string }> | undefined) ?? []).map((m) => m.role);
    delete params['messages'];
    if (!question && q.sampling?.maxTokens !== undefined) params['maxTokens'] = q.sampling.maxTokens;
    params['maxTokens'] ??= 1000;
    notes.push('the messages are never audited: sampling_messages() in the finish module writes them');
    const fields = Object.entries(params).map(([k, v]) => `${JSON.stringify(k)}: ${py(v)}, `);
    return {
      code: `{"method": "sampling/createMessage", "params": {${fields.join('')}"messages": sampling_messages(${JSON.stringify(q.key)}, ${py(roles.length ? roles : (q.sampling?.roles ?? ['user']))}, args, answers)}}`,
      notes,
    };
  }
  return { code: py({ method: 'roots/list' }), notes };
}

function step(s: FlowStep, c: Ctx, indent: string): string {
  const lines = [
    `${indent}# Round ${s.round}.`,
    `${indent}if not answered(answers, ${py(s.asks.map((a) => a.key))}):`,
    `${indent}    return ask(ID, answers, {`,
  ];
  for (const q of s.asks) {
    const { code, notes } = request(q, c);
    if (notes.length) lines.push(comment(notes, `${indent}        `));
    lines.push(`${indent}        ${JSON.stringify(q.key)}: ${code},`);
  }
  lines.push(`${indent}    })`);
  lines.push(point(s.next, c, indent, `after round ${s.round}`));
  return lines.join('\n');
}

function edge(e: FlowEdge, c: Ctx, indent: string): string {
  const seen = `${indent}# Observed in ${e.calls} call(s).`;
  return e.to ? `${seen}\n${step(e.to, c, indent)}` : `${seen}\n${indent}return await finish(args, answers)`;
}

function point(edges: readonly FlowEdge[], c: Ctx, indent: string, where: string): string {
  const lines: string[] = [];
  const groups = groupByWhen(edges);
  const single = groups.length === 1 && Object.keys(groups[0]![0]!.when).length === 0;
  for (const group of groups) {
    const cond = Object.entries(group[0]!.when).map(([k, a]) => `action_of(answers.get(${JSON.stringify(k)})) == ${JSON.stringify(a)}`);
    const inner = single ? indent : `${indent}    `;
    if (!single) lines.push(`${indent}if ${cond.length ? cond.join(' and ') : 'True'}:`);
    if (group.length === 1) lines.push(edge(group[0]!, c, inner));
    else {
      const at = `${c.flow.name} ${where}`;
      c.choices.push(at);
      const options = group.map((e) => (e.to ? `ask round ${e.to.round}: ${e.to.asks.map((a) => a.key).join(', ')}` : 'finish'));
      const keys = group.map((e) => (e.to ? e.to.asks.map((a) => a.key) : []));
      lines.push(comment(['The same actions went several ways here: what decided was not audited; choose() picks.'], inner));
      lines.push(`${inner}branch = taken(answers, ${py(keys)})`);
      lines.push(`${inner}if branch is None:`);
      lines.push(`${inner}    branch = choose(${JSON.stringify(at)}, ${py(options)}, args, answers)`);
      group.forEach((e, i) => {
        lines.push(`${inner}if branch == ${i}:`);
        lines.push(edge(e, c, `${inner}    `));
      });
    }
  }
  if (!(single && groups[0]!.length === 1)) {
    lines.push(comment(['Actions the audit never saw at this point.'], indent));
    lines.push(`${indent}return await finish(args, answers)`);
  }
  return lines.join('\n');
}

const PY_TYPE: Record<string, string> = { string: 'str', integer: 'int', number: 'float', boolean: 'bool', array: 'list', object: 'dict' };

/** Keyword parameters from a tool's input schema (names that are not Python identifiers are left out). */
function parameters(schema: Record<string, unknown> | undefined): { sig: string[]; names: string[]; skipped: string[] } {
  const props = (schema?.['properties'] as Record<string, { type?: unknown }> | undefined) ?? {};
  const required = (schema?.['required'] as string[] | undefined) ?? [];
  const sig: string[] = [];
  const names: string[] = [];
  const skipped: string[] = [];
  for (const [name, p] of Object.entries(props).sort(([a], [b]) => Number(!required.includes(a)) - Number(!required.includes(b)))) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || ['ctx', 'args', 'answers'].includes(name)) {
      skipped.push(name);
      continue;
    }
    const t = (typeof p.type === 'string' && PY_TYPE[p.type]) || 'Any';
    sig.push(required.includes(name) ? `${name}: ${t}` : `${name}: ${t} | None = None`);
    names.push(name);
  }
  return { sig, names, skipped };
}

function handlerModule(flow: HandlerFlow, d: Declared | undefined, mod: string): { text: string; c: Ctx } {
  const c: Ctx = { flow, choices: [], sampling: false };
  const body = point(flow.start, c, '    ', 'at the start');
  const tool = d?.tools.find((t) => t.name === flow.name);
  const prompt = d?.prompts.find((p) => p.name === flow.name);
  const resource = d?.resources.find((r) => r.uri === flow.name);
  const description = tool?.description ?? prompt?.description ?? resource?.description;
  const imports = ['finish', ...(c.choices.length ? ['choose'] : []), ...(c.sampling ? ['sampling_messages'] : [])];
  let register: string[];
  if (flow.kind === 'tool') {
    const { sig, names, skipped } = parameters(tool?.inputSchema);
    register = [
      ...(skipped.length ? [comment([`Arguments that are not Python names, left out: ${skipped.join(', ')}`], '    ')] : []),
      `    async def handler(${[...sig, 'ctx: Context | None = None'].join(', ')}) -> CallToolResult | InputRequiredResult:`,
      `        args = {${names.map((n) => `${JSON.stringify(n)}: ${n}`).join(', ')}}`,
      '        return await flow({k: v for k, v in args.items() if v is not None}, resume(ctx, ID))',
      '',
      `    server.add_tool(handler, name=${JSON.stringify(flow.name)}${description === undefined ? '' : `, description=${JSON.stringify(description)}`})`,
    ];
  } else if (flow.kind === 'prompt') {
    const args = prompt?.arguments ?? [];
    const ok = args.filter((a) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(a.name));
    register = [
      `    @server.prompt(name=${JSON.stringify(flow.name)}${description === undefined ? '' : `, description=${JSON.stringify(description)}`})`,
      `    async def handler(${[...ok.map((a) => (a.required ? `${a.name}: str` : `${a.name}: str | None = None`)), 'ctx: Context | None = None'].join(', ')}) -> Any:`,
      `        args = {${ok.map((a) => `${JSON.stringify(a.name)}: ${a.name}`).join(', ')}}`,
      '        return await flow({k: v for k, v in args.items() if v is not None}, resume(ctx, ID))',
      '',
      '    del handler',
    ];
  } else {
    const templated = /\{[^}]+\}/.test(flow.name);
    register = [
      ...(templated
        ? []
        : [
            comment(
              [
                'mcp 2.3.0 gives a static resource no Context, so it cannot ask: this one answers finish() with no',
                'answers. To keep its questions, serve it under a URI template or move the asking to a tool.',
              ],
              '    ',
            ),
          ]),
      `    @server.resource(${JSON.stringify(flow.name)}${resource?.mimeType ? `, mime_type=${JSON.stringify(resource.mimeType)}` : ''})`,
      templated ? '    async def handler(ctx: Context | None = None) -> Any:' : '    async def handler() -> Any:',
      templated
        ? `        return await flow({"uri": ${JSON.stringify(flow.name)}}, resume(ctx, ID))`
        : `        return await finish({"uri": ${JSON.stringify(flow.name)}}, {})`,
      '',
      '    del handler',
    ];
  }
  const text = `${comment([
    `The ${flow.kind} ${JSON.stringify(flow.name)} of the legacy server, migrated to 2026-07-28: it asks what the legacy`,
    `${flow.kind} asked in ${flow.calls} audited call(s), round by round, and hands the answers to finish() in`,
    `${mod}_finish.py. Written by 'mrtr-proxy report --handlers': regenerating replaces this file, never the finish file.`,
  ])}
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp_types import CallToolResult, InputRequiredResult

from mrtr import action_of, answered, ask, resume, taken

from .${mod}_finish import ${imports.join(', ')}

ID = ${JSON.stringify(`${flow.kind}:${flow.name}`)}


async def flow(args: dict[str, Any], answers: dict[str, Any]) -> Any:
    """The question flow: the next round's questions, or what finish() makes of the answers."""
${body}


def register(server: MCPServer) -> None:
${register.join('\n')}


# Kept referenced: a flow without branches uses neither.
_ = (action_of, taken, CallToolResult, InputRequiredResult)
`;
  return { text, c };
}

function finishModule(flow: HandlerFlow, c: Ctx): string {
  const lines = [
    comment([
      `What the migrated ${flow.kind} ${JSON.stringify(flow.name)} does with the answers: yours to write.`,
      "'mrtr-proxy report --handlers' writes this file once and never replaces it. answers[key] is the",
      "client's response under that key (an elicitation's {action, content}, a sampling message, {roots}).",
      '',
      'The legacy result as the audit saw it:',
      ...endingsOf(flow.start).map((e) => `  ${e}`),
    ]),
    'from typing import Any',
    '',
    ...(flow.kind === 'tool' ? ['from mcp_types import CallToolResult', ''] : []),
    '',
    'async def finish(args: dict[str, Any], answers: dict[str, Any]) -> Any:',
    flow.kind === 'tool'
      ? `    return CallToolResult.model_validate({"content": [{"type": "text", "text": ${JSON.stringify(`${flow.name}: not written yet (fill finish)`)}}], "isError": True})`
      : `    raise NotImplementedError(${JSON.stringify(`${flow.name}: not written yet (fill finish)`)})`,
  ];
  if (c.choices.length)
    lines.push(
      '',
      '',
      comment([
        "Where the same actions led different ways (an argument or an answer's value decided): the index to take.",
        ...c.choices.map((p) => `  - ${p}`),
      ]),
      'def choose(point: str, options: list[str], args: dict[str, Any], answers: dict[str, Any]) -> int:',
      '    return 0',
    );
  if (c.sampling)
    lines.push(
      '',
      '',
      comment(['The messages of each sampling request (the audit keeps their roles, never their text).']),
      'def sampling_messages(key: str, roles: list[str], args: dict[str, Any], answers: dict[str, Any]) -> list[dict[str, Any]]:',
      '    return [{"role": "assistant" if role == "assistant" else "user", "content": {"type": "text", "text": f"TODO: the {role} message"}} for role in roles]',
    );
  return `${lines.join('\n')}\n`;
}

const MRTR = `# What every migrated handler shares: the answers so far travel as the request_state of the
# SDK's InputRequiredResult; MCPServer's RequestStateBoundary seals it (AES-GCM) before it reaches
# the client and verifies it on the way back, so a handler only reads state it minted.
import json
from typing import Any

from mcp.server.mcpserver import Context
from mcp_types import InputRequiredResult


def _plain(value: Any) -> Any:
    return value.model_dump(by_alias=True, exclude_none=True, mode="json") if hasattr(value, "model_dump") else value


def resume(ctx: Context | None, id: str) -> dict[str, Any]:
    """The answers so far: the state's (minted for this handler), plus this retry's responses to
    the round it asked; responses to anything else are not taken."""
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

`;

function serverModule(d: Declared | undefined, flows: readonly HandlerFlow[], upstream: string, names: ReadonlyMap<HandlerFlow, string>): string {
  const migrated = (kind: ItemKind, name: string) => flows.some((f) => f.kind === kind && f.name === name);
  const others = (d?.tools ?? []).filter((t) => !migrated('tool', t.name));
  const name = `${d?.server?.name ?? upstream}-migrated`;
  return `${comment([
    `The 2026-07-28 server that replaces the legacy upstream ${JSON.stringify(upstream)}: the migrated handlers and,`,
    'listed as not migrated, the tools the audit never saw ask. Streamable HTTP on HOST:PORT/mcp',
    '(default 127.0.0.1:3000); MRTR_STATE_KEY seals request_state and must be the same on every instance.',
  ])}
import os
import sys
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.request_state import RequestStateSecurity
from mcp_types import CallToolResult

${flows.map((f, i) => `from handlers.${FOLDER[f.kind]}.${names.get(f)} import register as register${i}`).join('\n')}

NOT_MIGRATED = ${py(others.map((t) => t.name))}


def build() -> MCPServer:
    key = os.environ.get("MRTR_STATE_KEY")
    if not key:
        # One process then serves every round of a call: fine for one instance, not for several.
        print("MRTR_STATE_KEY unset: request_state is sealed with a per-process key", file=sys.stderr)
    security = RequestStateSecurity(keys=[key]) if key else RequestStateSecurity.ephemeral()
    server = MCPServer(${JSON.stringify(name)}, request_state_security=security)
${flows.map((_, i) => `    register${i}(server)`).join('\n')}
    for tool in NOT_MIGRATED:
        server.add_tool(_not_migrated(tool), name=tool, description="not migrated yet (still served by the legacy server)")
    return server


def _not_migrated(name: str) -> Any:
    async def handler() -> CallToolResult:
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
name = ${JSON.stringify(moduleOf(name).replace(/_/g, '-'))}
version = "0.1.0"
requires-python = ">=3.11"
dependencies = ["mcp==${PY_SDK_VERSION}"]
`;
}

/** Every file of the migrated Python server for one upstream. */
export function pythonServer(upstream: string, declared: Declared | undefined, flows: readonly HandlerFlow[]): GeneratedFile[] {
  const names = fileNames(flows, moduleOf);
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
