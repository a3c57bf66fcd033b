// One migrated Python handler for the official 2026-07-28 SDK (`mcp` 2.x, MCPServer) and its
// author's module: the flow returns the SDK's `InputRequiredResult` round by round, with the
// answers so far as its `request_state`, and ends in the author's finish(). Pure: returns the text.
import { endingsOf, groupByWhen, type FlowEdge, type FlowQuestion, type FlowStep, type HandlerFlow } from './handler-flow.js';
import type { ItemKind } from './migration.js';
import { schemaFromShape } from './migration.js';
import type { Declared } from './model.js';
import { declaredResource } from './handlers-ts.js';
import { isPyIdentifier, pyComment, pyLiteral, pyString } from './quote.js';
import { isTemplate, templateVariables } from './uri-template.js';

export const FOLDER: Record<ItemKind, string> = { tool: 'tools', prompt: 'prompts', resource: 'resources' };

export interface Ctx {
  flow: HandlerFlow;
  choices: string[];
  sampling: boolean;
}

function request(q: FlowQuestion, c: Ctx): { code: string; notes: string[] } {
  const question = q.question as Record<string, unknown> | undefined;
  const notes: string[] = [...(q.notes ?? [])];
  // One call cannot show whether the text is fixed or built from arguments and answers.
  if (q.messages.length === 1 && q.seen === 1 && q.method === 'elicitation/create')
    notes.push('the message was seen in one call only: if it names an argument or an answer, build it from args and answers');
  if (q.messages.length > 1)
    notes.push(
      `the message varied between calls: ${q.messages
        .slice(0, 3)
        .map((m) => pyString(m))
        .join(' / ')}`,
    );
  const message = typeof question?.['message'] === 'string' ? question['message'] : 'TODO: the message (not audited)';
  if (q.method === 'elicitation/create' && q.elicitationMode === 'url') {
    const url = typeof question?.['url'] === 'string' && question['url'] ? question['url'] : 'https://example.invalid/TODO';
    notes.push('the audit keeps the URL without its query: add the per-call part here');
    return { code: pyLiteral({ method: 'elicitation/create', params: { mode: 'url', message, url } }), notes };
  }
  if (q.method === 'elicitation/create') {
    let schema = question?.['requestedSchema'];
    if (schema === undefined) {
      const s = schemaFromShape(q.schema ?? { properties: {} }) as { properties: Record<string, Record<string, unknown>> };
      for (const p of Object.values(s.properties)) delete p['enumOptions'];
      schema = s;
      notes.push('audited without --audit-questions: the schema is rebuilt from its shape');
    }
    return { code: pyLiteral({ method: 'elicitation/create', params: { mode: 'form', message, requestedSchema: schema } }), notes };
  }
  if (q.method === 'sampling/createMessage') {
    c.sampling = true;
    const params = { ...((question?.['params'] as Record<string, unknown> | undefined) ?? {}) };
    const roles = ((params['messages'] as Array<{ role: string }> | undefined) ?? []).map((m) => m.role);
    delete params['messages'];
    if (!question && q.sampling?.maxTokens !== undefined) params['maxTokens'] = q.sampling.maxTokens;
    params['maxTokens'] ??= 1000;
    notes.push('the messages are never audited: sampling_messages() in the finish module writes them');
    const fields = Object.entries(params).map(([k, v]) => `${pyString(k)}: ${pyLiteral(v)}, `);
    return {
      code: `{"method": "sampling/createMessage", "params": {${fields.join('')}"messages": sampling_messages(${pyString(q.key)}, ${pyLiteral(roles.length ? roles : (q.sampling?.roles ?? ['user']))}, args, answers)}}`,
      notes,
    };
  }
  return { code: pyLiteral({ method: 'roots/list' }), notes };
}

function step(s: FlowStep, c: Ctx, indent: string): string {
  const lines = [
    `${indent}# Round ${s.round}.`,
    `${indent}if not answered(answers, ${pyLiteral(s.asks.map((a) => a.key))}):`,
    `${indent}    return ask(ID, answers, {`,
  ];
  for (const q of s.asks) {
    const { code, notes } = request(q, c);
    if (notes.length) lines.push(pyComment(notes, `${indent}        `));
    lines.push(`${indent}        ${pyString(q.key)}: ${code},`);
  }
  lines.push(`${indent}    })`);
  lines.push(point(s.next, c, indent, `after round ${s.round}`));
  return lines.join('\n');
}

function edge(e: FlowEdge, c: Ctx, indent: string): string {
  const seen = e.added ? `${indent}# Added before the ${e.calls} audited call(s).` : `${indent}# Observed in ${e.calls} call(s).`;
  return e.to ? `${seen}\n${step(e.to, c, indent)}` : `${seen}\n${indent}return await finish(args, answers)`;
}

function point(edges: readonly FlowEdge[], c: Ctx, indent: string, where: string): string {
  const lines: string[] = [];
  const groups = groupByWhen(edges);
  const single = groups.length === 1 && Object.keys(groups[0]![0]!.when).length === 0;
  for (const group of groups) {
    const cond = Object.entries(group[0]!.when).map(([k, a]) => `action_of(answers.get(${pyString(k)})) == ${pyString(a)}`);
    const inner = single ? indent : `${indent}    `;
    if (!single) lines.push(`${indent}if ${cond.length ? cond.join(' and ') : 'True'}:`);
    if (group.length === 1) lines.push(edge(group[0]!, c, inner));
    else {
      const at = `${c.flow.name} ${where}`;
      c.choices.push(at);
      const options = group.map((e) => (e.to ? `ask round ${e.to.round}: ${e.to.asks.map((a) => a.key).join(', ')}` : 'finish'));
      const keys = group.map((e) => (e.to ? e.to.asks.map((a) => a.key) : []));
      lines.push(pyComment(['The same actions went several ways here: what decided was not audited; choose() picks.'], inner));
      lines.push(`${inner}branch = taken(answers, ${pyLiteral(keys)})`);
      lines.push(`${inner}if branch is None:`);
      lines.push(`${inner}    branch = choose(${pyString(at)}, ${pyLiteral(options)}, args, answers)`);
      group.forEach((e, i) => {
        lines.push(`${inner}if branch == ${i}:`);
        lines.push(edge(e, c, `${inner}    `));
      });
    }
  }
  if (!(single && groups[0]!.length === 1)) {
    lines.push(pyComment(['Actions the audit never saw at this point.'], indent));
    lines.push(`${indent}return await finish(args, answers)`);
  }
  return lines.join('\n');
}

/** Whether a template variable can be a parameter of the function MCPServer hands it to by name. */
const passable = (name: string) => isPyIdentifier(name) && name !== 'ctx' && !name.startsWith('_');

/** How a resource is registered: a template's function takes its variables, a static one asks from a middleware. */
function resourceRegistration(flow: HandlerFlow, resource: ReturnType<typeof declaredResource>, description: string | undefined): string[] {
  // Listed under the legacy name (resources/list shows it), not the function's.
  const meta = [
    pyString(flow.name),
    ...(resource?.name === undefined ? [] : [`name=${pyString(resource.name)}`]),
    ...(description === undefined ? [] : [`description=${pyString(description)}`]),
    ...(resource?.mimeType ? [`mime_type=${pyString(resource.mimeType)}`] : []),
  ];
  const decorator = `    @server.resource(${meta.join(', ')})`;
  if (!isTemplate(flow.name))
    return [
      pyComment(
        [
          'A static resource gets no Context to ask with: the middleware asks on every read of the URI,',
          'and the function below returns what finish() made of the answers (mrtr.py says how).',
        ],
        '    ',
      ),
      `    server.middleware.append(asking_static_resource(server, ${pyString(flow.name)}, ID, flow))`,
      '',
      decorator,
      '    async def handler() -> Any:',
      `        return finished(${pyString(flow.name)})`,
      '',
      '    del handler',
    ];
  // The SDK hands a template's function its variables by name, and refuses to register one whose
  // parameters differ from them; a {?query} variable may be left out of the URI read.
  const variables = templateVariables(flow.name);
  const unpassable = variables.filter((v) => !passable(v.name)).map((v) => v.name);
  if (unpassable.length)
    return [
      pyComment(['MCPServer hands a template function its variables as parameters of the same names, which these cannot be.'], '    '),
      `    print(${pyString(`${flow.name}: not served, its variables ${unpassable.join(', ')} are not Python parameter names`)}, file=sys.stderr)`,
    ];
  const sig = variables.map((v) => `${v.name}: ${v.explode ? 'list[str]' : 'str'}${v.query ? ' | None = None' : ''}`);
  return [
    decorator,
    `    async def handler(${[...sig, 'ctx: Context | None = None'].join(', ')}) -> Any:`,
    `        variables = {${variables.map((v) => `${pyString(v.name)}: ${v.name}`).join(', ')}}`,
    ...(variables.some((v) => v.query) ? ['        variables = {k: v for k, v in variables.items() if v is not None}'] : []),
    `        uri = read_uri(ctx, ${pyString(flow.name)}, variables)`,
    '        return await flow({"uri": uri, "variables": variables}, resume(ctx, ID))',
    '',
    '    del handler',
  ];
}

/**
 * The registration: a tool module's tool() (MCPServer takes Tool objects when built), a prompt's
 * or resource's register(server). A tool and a prompt keep what the legacy server declared as
 * data (mrtr.py's declared_tool and declared_prompt): their names never become Python names.
 */
function registration(flow: HandlerFlow, d: Declared | undefined): string[] {
  const tool = d?.tools.find((t) => t.name === flow.name);
  const prompt = d?.prompts.find((p) => p.name === flow.name);
  const resource = declaredResource(d, flow);
  const description = tool?.description ?? prompt?.description ?? resource?.description;
  if (flow.kind === 'tool')
    return [
      'async def handler(args: dict[str, Any], ctx: Context | None = None) -> CallToolResult | InputRequiredResult:',
      '    return await flow(args, resume(ctx, ID))',
      '',
      '',
      'def tool() -> Tool:',
      `    return declared_tool(handler, ${pyLiteral({ name: flow.name, ...(tool?.title === undefined ? {} : { title: tool.title }), ...(description === undefined ? {} : { description }), inputSchema: tool?.inputSchema ?? { type: 'object' }, ...(tool?.annotations ? { annotations: tool.annotations } : {}) })})`,
    ];
  if (flow.kind === 'prompt')
    return [
      'async def handler(ctx: Context | None = None, **args: Any) -> Any:',
      '    return await flow(args, resume(ctx, ID))',
      '',
      '',
      'def register(server: MCPServer) -> None:',
      `    server.add_prompt(declared_prompt(handler, ${pyLiteral({ name: flow.name, ...(description === undefined ? {} : { description }), arguments: prompt?.arguments ?? [] })}))`,
    ];
  return ['def register(server: MCPServer) -> None:', ...resourceRegistration(flow, resource, description)];
}

export function handlerModule(flow: HandlerFlow, d: Declared | undefined, mod: string): { text: string; c: Ctx } {
  const c: Ctx = { flow, choices: [], sampling: false };
  const body = point(flow.start, c, '    ', 'at the start');
  const imports = ['finish', ...(c.choices.length ? ['choose'] : []), ...(c.sampling ? ['sampling_messages'] : [])];
  const staticResource = flow.kind === 'resource' && !isTemplate(flow.name);
  const mrtrImports = [
    'action_of',
    'answered',
    'ask',
    ...(staticResource ? ['asking_static_resource', 'finished'] : []),
    ...(flow.kind === 'resource' && !staticResource ? ['read_uri'] : []),
    ...(flow.kind === 'tool' ? ['declared_tool'] : flow.kind === 'prompt' ? ['declared_prompt'] : []),
    'resume',
    'taken',
  ];
  const text = `${pyComment([
    `The ${flow.kind} ${pyString(flow.name)} of the legacy server, migrated to 2026-07-28: it asks what the legacy`,
    `${flow.kind} asked in ${flow.calls} audited call(s), round by round, and hands the answers to finish() in`,
    `${mod}_finish.py. Written by 'mrtr-proxy report --handlers': regenerating replaces this file, never the finish file.`,
    ...(flow.rootsFirst === undefined ? [] : [`It asks for the client's roots first (answers["roots"]): ${flow.rootsFirst}.`]),
  ])}
import sys
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.tools.base import Tool
from mcp_types import CallToolResult, InputRequiredResult

from mrtr import ${mrtrImports.join(', ')}

from .${mod}_finish import ${imports.join(', ')}

ID = ${pyString(`${flow.kind}:${flow.name}`)}


async def flow(args: dict[str, Any], answers: dict[str, Any]) -> Any:
    """The question flow: the next round's questions, or what finish() makes of the answers."""
${body}


${registration(flow, d).join('\n')}


# Kept referenced: a flow without branches uses neither, and each kind of item only some of the rest.
_ = (action_of, taken, sys, Context, MCPServer, Tool, CallToolResult, InputRequiredResult)
`;
  return { text, c };
}

export function finishModule(flow: HandlerFlow, c: Ctx): string {
  const lines = [
    pyComment([
      `What the migrated ${flow.kind} ${pyString(flow.name)} does with the answers: yours to write.`,
      "'mrtr-proxy report --handlers' writes this file once and never replaces it. answers[key] is the",
      "client's response under that key (an elicitation's {action, content}, a sampling message, {roots}).",
      ...(flow.kind === 'resource' && isTemplate(flow.name) ? [`args["uri"] is the URI read, args["variables"] its values of ${flow.name}'s variables.`] : []),
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
      ? `    return CallToolResult.model_validate({"content": [{"type": "text", "text": ${pyString(`${flow.name}: not written yet (fill finish)`)}}], "isError": True})`
      : `    raise NotImplementedError(${pyString(`${flow.name}: not written yet (fill finish)`)})`,
  ];
  if (c.choices.length)
    lines.push(
      '',
      '',
      pyComment([
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
      pyComment(['The messages of each sampling request (the audit keeps their roles, never their text).']),
      'def sampling_messages(key: str, roles: list[str], args: dict[str, Any], answers: dict[str, Any]) -> list[dict[str, Any]]:',
      '    return [{"role": "assistant" if role == "assistant" else "user", "content": {"type": "text", "text": f"TODO: the {role} message"}} for role in roles]',
    );
  return `${lines.join('\n')}\n`;
}
