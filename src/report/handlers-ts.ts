// One migrated TypeScript handler for the official 2026-07-28 SDK (`@modelcontextprotocol/server`
// 2.x) and its author's file: the flow asks what the legacy server asked, round by round, with the
// SDK's `inputRequired` builders, and ends in the author's `finish`. Pure: returns the text.
import type { AuditedQuestion } from '../audit/question.js';
import type { Declared } from './model.js';
import { endingsOf, groupByWhen, type FlowEdge, type FlowQuestion, type FlowStep, type HandlerFlow } from './handler-flow.js';
import type { ItemKind } from './migration.js';
import { schemaFromShape } from './migration.js';
import { tsComment, tsLiteral } from './quote.js';
import { isTemplate } from './uri-template.js';

/** A file to write: `author` files are the author's once written and never replaced. */
export interface GeneratedFile {
  path: string;
  text: string;
  author?: boolean;
}

const RESULT_TYPE: Record<ItemKind, string> = { tool: 'CallToolResult', prompt: 'GetPromptResult', resource: 'ReadResourceResult' };
export const FOLDER: Record<ItemKind, string> = { tool: 'tools', prompt: 'prompts', resource: 'resources' };

export interface Ctx {
  flow: HandlerFlow;
  /** Branch points the audit cannot explain, in order. */
  choices: string[];
  samplingKeys: string[];
  /** Whether a question has no 2026-07-28 form. */
  unsupported?: boolean;
}

function whenCondition(when: Record<string, string>): string {
  const parts = Object.entries(when).map(([k, a]) => `actionOf(answers[${tsLiteral(k)}]) === ${tsLiteral(a)}`);
  return parts.length === 0 ? 'true' : parts.join(' && ');
}

function describeEdge(e: FlowEdge): string {
  const end = e.to
    ? `asks round ${e.to.round} (${e.to.asks.map((a) => a.key).join(', ')})`
    : `ends (${Object.entries(e.outcomes)
        .map(([o, n]) => `${o}: ${n}`)
        .join(', ')})`;
  return `${end}; seen in ${e.calls} call(s)`;
}

function requestFor(q: FlowQuestion, c: Ctx): { code: string; notes: string[] } {
  const notes: string[] = [...(q.notes ?? [])];
  const question = q.question as (AuditedQuestion & Record<string, unknown>) | undefined;
  // One call cannot show whether the text is fixed or built from arguments and answers.
  if (q.messages.length === 1 && q.seen === 1 && q.method === 'elicitation/create')
    notes.push('the message was seen in one call only: if it names an argument or an answer, build it from args and answers');
  if (q.messages.length > 1)
    notes.push(
      `the message varied between calls (it names an argument or an earlier answer): ${q.messages
        .slice(0, 3)
        .map((m) => tsLiteral(m))
        .join(' / ')}`,
    );
  if (q.method === 'elicitation/create' && q.elicitationMode === 'url') {
    const message = typeof question?.['message'] === 'string' ? question['message'] : 'TODO: the message (not audited)';
    const url = typeof question?.['url'] === 'string' && question['url'] ? question['url'] : 'https://example.invalid/TODO';
    if (!question) notes.push('audited without --audit-questions: the message and URL are placeholders');
    notes.push('the audit keeps the URL without its query: add the per-call part here');
    return { code: `inputRequired.elicitUrl({ message: ${tsLiteral(message)}, url: ${tsLiteral(url)} })`, notes };
  }
  if (q.method === 'elicitation/create') {
    const message = typeof question?.['message'] === 'string' ? question['message'] : 'TODO: the message (not audited)';
    const schema = question && 'requestedSchema' in question ? question['requestedSchema'] : wireSchema(q);
    if (!question) notes.push('audited without --audit-questions: the schema is rebuilt from its shape (no titles, defaults or enum values)');
    return { code: `inputRequired.elicit({ message: ${tsLiteral(message)}, requestedSchema: formSchema(${tsLiteral(schema)}) })`, notes };
  }
  if (q.method === 'sampling/createMessage') {
    c.samplingKeys.push(q.key);
    const params = { ...((question?.['params'] as Record<string, unknown> | undefined) ?? {}) };
    delete params['messages'];
    if (!question) {
      if (q.sampling?.maxTokens !== undefined) params['maxTokens'] = q.sampling.maxTokens;
      notes.push('audited without --audit-questions: only maxTokens is known of the parameters');
    }
    params['maxTokens'] ??= 1000;
    notes.push('the messages are never audited: samplingMessages() in the finish file writes them');
    const fields = Object.entries(params).map(([k, v]) => `${tsLiteral(k)}: ${tsLiteral(v)}, `);
    return { code: `inputRequired.createMessage({ ${fields.join('')}messages: samplingMessages(${tsLiteral(q.key)}, args, answers) })`, notes };
  }
  if (q.method === 'roots/list') return { code: 'inputRequired.listRoots()', notes };
  // Legacy servers ask only these three; anything else cannot be asked in 2026-07-28 and must not
  // pass for a question that compiles.
  c.unsupported = true;
  notes.push(`${q.method} has no 2026-07-28 input request: rewrite this round`);
  return { code: `unsupported(${tsLiteral(q.method)})`, notes };
}

/** A wire elicitation schema from an audited shape (enum values are not audited: a plain string). */
function wireSchema(q: FlowQuestion): unknown {
  const s = schemaFromShape(q.schema ?? { properties: {} }) as { properties: Record<string, Record<string, unknown>> };
  for (const p of Object.values(s.properties)) delete p['enumOptions'];
  return s;
}

function renderStep(step: FlowStep, c: Ctx, indent: string): string {
  const lines: string[] = [];
  const keys = step.asks.map((a) => a.key);
  lines.push(`${indent}// Round ${step.round}.`);
  lines.push(`${indent}if (!answered(answers, ${tsLiteral(keys)})) {`);
  lines.push(`${indent}  return ask(ctx, ID, answers, {`);
  for (const q of step.asks) {
    const { code, notes } = requestFor(q, c);
    if (notes.length) lines.push(tsComment(notes, `${indent}    `));
    lines.push(`${indent}    ${tsLiteral(q.key)}: ${code},`);
  }
  lines.push(`${indent}  });`);
  lines.push(`${indent}}`);
  lines.push(renderPoint(step.next, c, indent, `after round ${step.round}`));
  return lines.join('\n');
}

/** What follows one point of the flow: the observed branches, by the client's actions, then by the author's choice. */
function renderPoint(edges: readonly FlowEdge[], c: Ctx, indent: string, where: string): string {
  const lines: string[] = [];
  const groups = groupByWhen(edges);
  for (const group of groups) {
    const cond = whenCondition(group[0]!.when);
    const single = groups.length === 1 && cond === 'true';
    const inner = single ? indent : `${indent}  `;
    if (!single) lines.push(`${indent}if (${cond}) {`);
    if (group.length === 1) lines.push(renderEdge(group[0]!, c, inner));
    else {
      const point = `${c.flow.name} ${where}${
        cond === 'true'
          ? ''
          : ` when ${Object.entries(group[0]!.when)
              .map(([k, a]) => `${k} ${a}`)
              .join(', ')}`
      }`;
      c.choices.push(point);
      lines.push(
        tsComment(
          [
            `The audit saw calls with the same actions go ${group.length} ways here: what decides (an argument,`,
            "an answer's value) was not audited. choose() in the finish file picks; a branch already",
            'taken (its answers are in the state) is followed again on every retry.',
          ],
          inner,
        ),
      );
      const options = group.map((e) => (e.to ? `ask round ${e.to.round}: ${e.to.asks.map((a) => a.key).join(', ')}` : 'finish'));
      const keys = group.map((e) => (e.to ? e.to.asks.map((a) => a.key) : []));
      lines.push(`${inner}switch (taken(answers, ${tsLiteral(keys)}) ?? choose(${tsLiteral(point)}, ${tsLiteral(options)}, args, answers)) {`);
      group.forEach((e, i) => {
        lines.push(`${inner}  case ${i}: {`);
        lines.push(renderEdge(e, c, `${inner}    `));
        lines.push(`${inner}  }`);
      });
      lines.push(`${inner}}`);
    }
    if (!single) lines.push(`${indent}}`);
  }
  const covered = groups.length === 1 && whenCondition(groups[0]![0]!.when) === 'true' && groups[0]!.length === 1;
  if (!covered) {
    lines.push(tsComment(['Actions the audit never saw at this point.'], indent));
    lines.push(`${indent}return finish(args, answers);`);
  }
  return lines.join('\n');
}

function renderEdge(e: FlowEdge, c: Ctx, indent: string): string {
  const head = tsComment(
    [e.added ? `Added before the ${e.calls} audited call(s): asks round 1 (${e.to?.asks.map((a) => a.key).join(', ')}).` : `Observed: ${describeEdge(e)}.`],
    indent,
  );
  if (!e.to) return `${head}\n${indent}return finish(args, answers);`;
  return `${head}\n${renderStep(e.to, c, indent)}`;
}

function declaredSchema(d: Declared | undefined, flow: HandlerFlow): unknown {
  if (flow.kind === 'tool') return d?.tools.find((t) => t.name === flow.name)?.inputSchema ?? { type: 'object' };
  if (flow.kind === 'prompt') {
    const args = d?.prompts.find((p) => p.name === flow.name)?.arguments ?? [];
    return {
      type: 'object',
      properties: Object.fromEntries(args.map((a) => [a.name, { type: 'string' }])),
      required: args.filter((a) => a.required).map((a) => a.name),
    };
  }
  return undefined;
}

/** A templated resource's reads get the URI read and its template's variables; a static one's the URI. */
const templated = (flow: HandlerFlow) => flow.kind === 'resource' && isTemplate(flow.name);

function argsTypeOf(flow: HandlerFlow): string {
  if (flow.kind !== 'resource') return 'Record<string, unknown>';
  return templated(flow) ? '{ uri: string; variables: Variables }' : '{ uri: string }';
}

/** What the legacy server declared of a resource or template: its name, description and MIME type. */
export function declaredResource(d: Declared | undefined, flow: HandlerFlow): { name?: string; description?: string; mimeType?: string } | undefined {
  if (flow.kind !== 'resource') return undefined;
  return isTemplate(flow.name) ? d?.resourceTemplates?.find((t) => t.uriTemplate === flow.name) : d?.resources.find((r) => r.uri === flow.name);
}

export function handlerFile(flow: HandlerFlow, d: Declared | undefined, slug: string): { text: string; c: Ctx } {
  const c: Ctx = { flow, choices: [], samplingKeys: [] };
  const body = renderPoint(flow.start, c, '  ', 'at the start');
  const tool = d?.tools.find((t) => t.name === flow.name);
  const prompt = d?.prompts.find((p) => p.name === flow.name);
  const resource = declaredResource(d, flow);
  const template = templated(flow);
  const description = tool?.description ?? prompt?.description ?? resource?.description;
  const head = [
    `The ${flow.kind} ${tsLiteral(flow.name)} of the legacy server, migrated to 2026-07-28: it asks what the`,
    `legacy ${flow.kind} asked in ${flow.calls} audited call(s), round by round, and hands the answers to`,
    `finish() in ./${slug}.finish.ts. Written by 'mrtr-proxy report --handlers': regenerating replaces`,
    'this file and never the finish file.',
    ...(flow.questionsAudited ? [] : ['Some questions were audited without --audit-questions: their text is a placeholder.']),
    ...(flow.rootsFirst === undefined ? [] : [`It asks for the client's roots first (answers.roots): ${flow.rootsFirst}.`]),
  ];
  const imports = [
    `import { type ${RESULT_TYPE[flow.kind]}, type InputRequiredResult, inputRequired, type McpServer, type ServerContext${flow.kind === 'tool' || flow.kind === 'prompt' ? ', fromJsonSchema' : ''}${template ? ', ResourceTemplate, type Variables' : ''} } from '@modelcontextprotocol/server';`,
    `import { actionOf, answered, type Answers, ask, formSchema, resume${c.choices.length ? ', taken' : ''}${c.unsupported ? ', unsupported' : ''} } from '../mrtr.js';`,
    `import { ${['finish', ...(c.choices.length ? ['choose'] : []), ...(c.samplingKeys.length ? ['samplingMessages'] : [])].join(', ')} } from './${slug}.finish.js';`,
  ];
  const argsType = argsTypeOf(flow);
  const flowFn = [
    `/** The question flow; returns the next round's questions or what finish() makes of the answers. */`,
    `export async function flow(args: ${argsType}, answers: Answers, ctx: ServerContext): Promise<${RESULT_TYPE[flow.kind]} | InputRequiredResult> {`,
    body,
    '}',
  ].join('\n');
  const meta = `${tool?.title === undefined ? '' : `title: ${tsLiteral(tool.title)}, `}${description === undefined ? '' : `description: ${tsLiteral(description)}, `}`;
  let register: string;
  if (flow.kind === 'tool')
    register = `  server.registerTool(${tsLiteral(flow.name)}, { ${meta}inputSchema: fromJsonSchema<Record<string, unknown>>(${tsLiteral(declaredSchema(d, flow))} as never)${tool?.annotations ? `, annotations: ${tsLiteral(tool.annotations)}` : ''} }, async (args, ctx) =>
    flow(args, await resume(ctx, ID), ctx),
  );`;
  else if (flow.kind === 'prompt')
    register = `  server.registerPrompt(${tsLiteral(flow.name)}, { ${meta}argsSchema: fromJsonSchema<Record<string, unknown>>(${tsLiteral(declaredSchema(d, flow))} as never) }, async (args, ctx) =>
    flow(args, await resume(ctx, ID), ctx),
  );`;
  else {
    // Listed under the legacy name (resources/list shows it); a file name only when none was declared.
    const fields = [
      ...(description === undefined ? [] : [`description: ${tsLiteral(description)}`]),
      ...(resource?.mimeType ? [`mimeType: ${tsLiteral(resource.mimeType)}`] : []),
    ];
    const config = `{ ${fields.join(', ')} }`;
    register = template
      ? `  // The audit cannot tell which URIs the template would list: it lists none.
  server.registerResource(${tsLiteral(resource?.name ?? slug)}, new ResourceTemplate(${tsLiteral(flow.name)}, { list: undefined }), ${config}, async (uri, variables, ctx) =>
    flow({ uri: uri.href, variables }, await resume(ctx, ID), ctx),
  );`
      : `  server.registerResource(${tsLiteral(resource?.name ?? slug)}, ${tsLiteral(flow.name)}, ${config}, async (uri, ctx) =>
    flow({ uri: uri.href }, await resume(ctx, ID), ctx),
  );`;
  }
  const text = [
    tsComment(head),
    ...imports,
    '',
    `const ID = ${tsLiteral(`${flow.kind}:${flow.name}`)};`,
    '',
    flowFn,
    '',
    `export function register(server: McpServer): void {`,
    register,
    '}',
    '',
    '// Referenced so that a flow without branches still compiles with noUnusedLocals.',
    'void actionOf;',
    'void formSchema;',
    '',
  ].join('\n');
  return { text, c };
}

export function finishFile(flow: HandlerFlow, c: Ctx): string {
  const endings = endingsOf(flow.start);
  const argsType = argsTypeOf(flow);
  const lines = [
    tsComment([
      `What the migrated ${flow.kind} ${tsLiteral(flow.name)} does with the answers: yours to write. 'mrtr-proxy report`,
      "--handlers' writes this file once and never replaces it.",
      '',
      'The legacy result as the audit saw it:',
      ...endings.map((e) => `  ${e}`),
    ]),
    `import type { ${RESULT_TYPE[flow.kind]}${c.samplingKeys.length ? ', SamplingMessage' : ''}${templated(flow) ? ', Variables' : ''} } from '@modelcontextprotocol/server';`,
    `import type { Answers } from '../mrtr.js';`,
    '',
    tsComment([
      "answers[key] is the client's bare response to the question under that key: for an elicitation",
      "{ action, content }, for sampling the model's message, for roots { roots }.",
      ...(templated(flow) ? [`args.uri is the URI read, args.variables its values of ${flow.name}'s variables.`] : []),
    ]),
    `export async function finish(args: ${argsType}, answers: Answers): Promise<${RESULT_TYPE[flow.kind]}> {`,
    '  void args;',
    '  void answers;',
    flow.kind === 'tool'
      ? `  return { content: [{ type: 'text', text: ${tsLiteral(`${flow.name}: not written yet (fill finish)`)} }], isError: true };`
      : `  throw new Error(${tsLiteral(`${flow.name}: not written yet (fill finish)`)});`,
    '}',
  ];
  if (c.choices.length)
    lines.push(
      '',
      tsComment([
        "Where the audit saw the same actions lead different ways (an argument or an answer's value",
        'decided, which the audit does not keep): return the index of the option to take.',
        ...c.choices.map((p) => `  - ${p}`),
      ]),
      `export function choose(point: string, options: string[], args: ${argsType}, answers: Answers): number {`,
      '  void point;',
      '  void options;',
      '  void args;',
      '  void answers;',
      '  return 0;',
      '}',
    );
  if (c.samplingKeys.length) {
    const shapes = collectSampling(flow.start);
    lines.push(
      '',
      tsComment([
        'The messages of each sampling request (the audit keeps their roles and content types, never their text):',
        ...shapes.map(([k, roles]) => `  ${k}: ${roles}`),
      ]),
      `export function samplingMessages(key: string, args: ${argsType}, answers: Answers): SamplingMessage[] {`,
      '  void args;',
      '  void answers;',
      '  switch (key) {',
      ...shapes.flatMap(([k, , messages]) => [`    case ${tsLiteral(k)}:`, `      return ${tsLiteral(messages)};`]),
      '    default:',
      "      return [{ role: 'user', content: { type: 'text', text: key } }];",
      '  }',
      '}',
    );
  }
  return `${lines.join('\n')}\n`;
}

function collectSampling(edges: readonly FlowEdge[], out: Array<[string, string, unknown[]]> = []): Array<[string, string, unknown[]]> {
  for (const e of edges) {
    if (!e.to) continue;
    for (const q of e.to.asks) {
      if (q.method !== 'sampling/createMessage' || out.some(([k]) => k === q.key)) continue;
      const kept = ((q.question as { params?: { messages?: Array<{ role: string; contentTypes: string[] }> } } | undefined)?.params?.messages ?? []).map(
        (m) => ({
          role: m.role,
          types: m.contentTypes,
        }),
      );
      const roles = kept.length ? kept : (q.sampling?.roles ?? ['user']).map((r) => ({ role: r, types: ['text'] }));
      const messages = roles.map((m) => ({
        role: m.role === 'assistant' ? 'assistant' : 'user',
        content: { type: 'text', text: `TODO: the ${m.role} message` },
      }));
      out.push([q.key, roles.map((m) => `${m.role} (${m.types.join('/')})`).join(', '), messages]);
    }
    collectSampling(e.to.next, out);
  }
  return out;
}
