// The question flow a migrated handler reproduces, from audit records: rounds, stable keys,
// branches told apart by the client's actions, and branch points the audit cannot explain.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AuditRecord, AuditedRequest } from '../../src/audit/record.js';
import { endingsOf, groupByWhen, handlerFlows } from '../../src/report/handler-flow.js';
import { pythonServer } from '../../src/report/server-py.js';
import { shortHash } from '../../src/report/quote.js';
import { typescriptServer } from '../../src/report/server-ts.js';

const form = (round: number, field: string, action = 'accept', message = `${field}?`): AuditedRequest => ({
  round,
  key: `elicitation-${round}`,
  method: 'elicitation/create',
  elicitationMode: 'form',
  schema: { properties: { [field]: { type: 'string', required: true } } },
  action,
  serverMs: 1,
  question: {
    method: 'elicitation/create',
    mode: 'form',
    message,
    requestedSchema: { type: 'object', properties: { [field]: { type: 'string', title: field } } },
  },
});

const call = (target: string, requests: AuditedRequest[], outcome: AuditRecord['outcome'] = { kind: 'complete', isError: false }): AuditRecord => ({
  ts: '2026-12-01T00:00:00.000Z',
  upstream: 'u',
  method: 'tools/call',
  target,
  mode: 'hold',
  rounds: Math.max(0, ...requests.map((r) => r.round)),
  durationMs: 5,
  finalServerMs: 1,
  requests,
  outcome,
});

describe('handlerFlows', () => {
  it('keeps rounds in order under readable keys, and leaves out items that never asked', () => {
    const flows = handlerFlows([call('twice', [form(1, 'first'), form(2, 'second')]), call('plain', [])]);
    assert.deepEqual(
      flows.map((f) => f.name),
      ['twice'],
    );
    const [start] = flows[0]!.start;
    assert.deepEqual(
      start!.to!.asks.map((a) => a.key),
      ['first'],
    );
    const [next] = start!.to!.next;
    assert.deepEqual(next!.when, { first: 'accept' });
    assert.deepEqual(
      next!.to!.asks.map((a) => a.key),
      ['second'],
    );
    assert.equal(next!.to!.next[0]!.to, undefined, 'then the call ends');
    assert.equal(flows[0]!.questionsAudited, true);
  });

  it('writes out a branch on the client’s action: accept asks again, decline ends', () => {
    const [flow] = handlerFlows([
      call('book', [form(1, 'details'), form(2, 'confirm')]),
      call('book', [form(1, 'details', 'decline')]),
      call('book', [form(1, 'details'), form(2, 'confirm')]),
    ]);
    const after1 = flow!.start[0]!.to!.next;
    assert.equal(flow!.start[0]!.calls, 3);
    assert.deepEqual(
      after1.map((e) => [e.when, e.to ? e.to.asks.map((a) => a.key) : 'end', e.calls]),
      [
        [{ details: 'accept' }, ['confirm'], 2],
        [{ details: 'decline' }, 'end', 1],
      ],
    );
    assert.equal(groupByWhen(after1).length, 2, 'both are told apart by the action');
  });

  it('marks a point where the same actions led different ways (an argument decided)', () => {
    const [flow] = handlerFlows([call('ask-if', [form(1, 'v')]), call('ask-if', [])]);
    assert.equal(groupByWhen(flow!.start).length, 1);
    assert.equal(groupByWhen(flow!.start)[0]!.length, 2);
  });

  it('gives a question asked twice in one call two keys, and keeps every message seen', () => {
    const [flow] = handlerFlows([
      call('again', [form(1, 'pin', 'accept', 'PIN?'), form(2, 'pin', 'accept', 'PIN again?')]),
      call('again', [form(1, 'pin', 'accept', 'PIN? (2)'), form(2, 'pin')]),
    ]);
    const first = flow!.start[0]!.to!;
    assert.deepEqual(first.asks[0]!.messages, ['PIN?', 'PIN? (2)']);
    assert.equal(first.next[0]!.to!.asks[0]!.key, 'pin_2');
  });

  it('follows no further than an unanswered round or a call that did not end', () => {
    const [flow] = handlerFlows([
      call('stop', [form(1, 'a', 'unanswered')], { kind: 'expired' }),
      call('stop', [form(1, 'a')], { kind: 'cancelled', why: 'x' }),
    ]);
    assert.deepEqual(flow!.start[0]!.to!.next, []);
  });

  it('says how the calls ended on each path, with the result shapes seen', () => {
    const [flow] = handlerFlows([
      { ...call('book', [form(1, 'details')]), resultShape: { parts: ['text'], structured: ['ref'] } },
      call('book', [form(1, 'details', 'decline')], { kind: 'complete', isError: true }),
    ]);
    assert.deepEqual(endingsOf(flow!.start), [
      'start -> round 1, details accept: complete 1x',
      '  content text; structuredContent {ref}',
      'start -> round 1, details decline: isError 1x',
    ]);
  });

  it('notes a flow audited without --audit-questions', () => {
    const { question: _q, ...bare } = form(1, 'a');
    assert.equal(handlerFlows([call('t', [bare])])[0]!.questionsAudited, false);
  });
});

const read = (uri: string, field: string): AuditRecord => ({ ...call(uri, [form(1, field)]), method: 'resources/read' });
/** A static asking resource and two reads of one asking template, as the legacy server declared them. */
const RESOURCE_READS = [read('fixture://secret', 'hint'), read('notes://note/1', 'ok'), read('notes://note/2', 'ok')];
const DECLARED_RESOURCES = {
  upstream: 'u',
  tools: [],
  prompts: [],
  resources: [{ uri: 'fixture://secret', name: 'secret', mimeType: 'text/plain' }],
  resourceTemplates: [
    { uriTemplate: 'notes://other/{id}', name: 'other' },
    { uriTemplate: 'notes://note/{id}', name: 'note', description: 'A note.' },
  ],
};

describe('typescriptServer', () => {
  const declared = {
    upstream: 'u',
    server: { name: 'legacy', version: '1' },
    tools: [
      { name: 'book', inputSchema: { type: 'object' } },
      { name: 'add', description: 'Adds.' },
    ],
    prompts: [],
    resources: [],
  };
  const flows = handlerFlows([call('book', [form(1, 'details'), form(2, 'confirm')]), call('book', [form(1, 'details', 'decline')])]);
  const files = typescriptServer('u', declared, flows);
  const byPath = new Map(files.map((f) => [f.path, f]));

  it('writes the project, one handler and one author file per flow', () => {
    assert.deepEqual(
      files.map((f) => `${f.path}${f.author ? ' (author)' : ''}`),
      ['package.json', 'tsconfig.json', 'src/mrtr.ts', 'src/server.ts', 'src/not-migrated.ts', 'src/tools/book.ts', 'src/tools/book.finish.ts (author)'],
    );
    assert.match(byPath.get('package.json')!.text, /"@modelcontextprotocol\/server": "2\.4\.0"/);
  });

  it('asks with the SDK builders, seals answers with its codec, and branches on the action', () => {
    const handler = byPath.get('src/tools/book.ts')!.text;
    assert.match(
      handler,
      /inputRequired\.elicit\(\{ message: "details\?", requestedSchema: formSchema\(\{"type":"object","properties":\{"details":\{"type":"string","title":"details"\}\}\}\)/,
    );
    assert.match(handler, /if \(actionOf\(answers\["details"\]\) === "accept"\) \{/);
    assert.match(handler, /if \(actionOf\(answers\["details"\]\) === "decline"\) \{/);
    assert.match(handler, /\/\/ the message was seen in one call only[^\n]*\n *"confirm": inputRequired\.elicit/, 'the confirmation was asked once');
    assert.doesNotMatch(handler, /seen in one call only[^\n]*\n *"details"/, 'the first question was asked twice');
    assert.match(byPath.get('src/mrtr.ts')!.text, /createRequestStateCodec<State>/);
    assert.match(byPath.get('src/tools/book.finish.ts')!.text, /export async function finish\(args: Record<string, unknown>, answers: Answers\)/);
  });

  it('lists the tools that never asked as not migrated', () => {
    const text = byPath.get('src/not-migrated.ts')!.text;
    assert.match(text, /"tools":\["add"\]/);
    assert.doesNotMatch(text, /registerTool\("book"/);
  });

  it('gives two tools whose names make the same file name two files', () => {
    const two = handlerFlows([call('a.b', [form(1, 'x')]), call('a-b', [form(1, 'x')])]);
    assert.deepEqual(
      typescriptServer('u', undefined, two)
        .map((f) => f.path)
        .filter((p) => p.startsWith('src/tools/') && !p.endsWith('.finish.ts'))
        .sort(),
      [`src/tools/a-b-${shortHash('a.b')}.ts`, 'src/tools/a-b.ts'],
    );
  });

  it('registers a templated resource as a template, under its legacy name, handing the flow the URI read and its variables', () => {
    const files = typescriptServer('u', DECLARED_RESOURCES, handlerFlows(RESOURCE_READS, [], [DECLARED_RESOURCES]));
    const text = (path: string) => files.find((f) => f.path === path)!.text;
    assert.match(
      text('src/resources/secret.ts'),
      /server\.registerResource\("secret", "fixture:\/\/secret", \{ mimeType: "text\/plain" \}, async \(uri, ctx\) =>/,
    );
    const notes = text('src/resources/note-id.ts');
    assert.match(
      notes,
      /server\.registerResource\("note", new ResourceTemplate\("notes:\/\/note\/\{id\}", \{ list: undefined \}\), \{ description: "A note\." \}, async \(uri, variables, ctx\) =>\n {4}flow\(\{ uri: uri\.href, variables \}, await resume\(ctx, ID\), ctx\),/,
    );
    assert.match(notes, /export async function flow\(args: \{ uri: string; variables: Variables \}/);
    assert.match(text('src/resources/note-id.finish.ts'), /export async function finish\(args: \{ uri: string; variables: Variables \}, answers: Answers\)/);
    assert.equal(files.filter((f) => f.path.startsWith('src/resources/')).length, 4, 'one handler and one finish per resource');
  });
});

describe('pythonServer', () => {
  const flows = handlerFlows([call('book', [form(1, 'details'), form(2, 'confirm')]), call('book', [form(1, 'details', 'decline')])]);
  const files = pythonServer('u', { upstream: 'u', tools: [{ name: 'book' }, { name: 'add' }], prompts: [], resources: [] }, flows);
  const byPath = new Map(files.map((f) => [f.path, f]));

  it('writes the project, one handler and one author module per flow', () => {
    assert.deepEqual(
      files.map((f) => `${f.path}${f.author ? ' (author)' : ''}`),
      [
        'pyproject.toml',
        'mrtr.py',
        'server.py',
        'handlers/__init__.py',
        'handlers/tools/__init__.py',
        'handlers/tools/book.py',
        'handlers/tools/book_finish.py (author)',
      ],
    );
    assert.match(byPath.get('pyproject.toml')!.text, /"mcp==2\.3\.0"/);
    assert.match(byPath.get('server.py')!.text, /RequestStateSecurity\(keys=\[key\]\)/);
    assert.match(byPath.get('server.py')!.text, /NOT_MIGRATED: list\[dict\[str, Any\]\] = \[\{"name": "add", "inputSchema": \{"type": "object"\}\}\]/);
  });

  it('branches on the action and asks with wire-shaped input requests', () => {
    const handler = byPath.get('handlers/tools/book.py')!.text;
    assert.match(handler, /if action_of\(answers\.get\("details"\)\) == "accept":/);
    assert.match(handler, /if action_of\(answers\.get\("details"\)\) == "decline":/);
    assert.match(handler, /"confirm": \{"method": "elicitation\/create", "params": \{"mode": "form", "message": "confirm\?"/);
  });

  it('lets a static resource ask through a middleware, and a templated one from its Context, each under its legacy name', () => {
    const resources = pythonServer('u', DECLARED_RESOURCES, handlerFlows(RESOURCE_READS, [], [DECLARED_RESOURCES]));
    const text = (path: string) => resources.find((f) => f.path === path)!.text;
    const secret = text('handlers/resources/secret.py');
    assert.match(secret, /^from mrtr import .*\basking_static_resource, finished\b/m);
    assert.match(secret, /\n {4}server\.middleware\.append\(asking_static_resource\(server, "fixture:\/\/secret", ID, flow\)\)\n/);
    // Still registered, so resources/list lists it; its function only returns what the middleware finished.
    assert.match(
      secret,
      /@server\.resource\("fixture:\/\/secret", name="secret", mime_type="text\/plain"\)\n {4}async def handler\(\) -> Any:\n {8}return finished\("fixture:\/\/secret"\)\n/,
    );
    assert.match(secret, /"hint": \{"method": "elicitation\/create"/);
    assert.doesNotMatch(secret, /cannot ask|with no\s+# answers|finish\(\{"uri"/);
    // The two audited URIs are one template's: one handler, whose function takes the template's
    // variables (the SDK refuses to register it otherwise) and hands the flow the URI read.
    assert.deepEqual(
      resources.filter((f) => f.path.startsWith('handlers/resources/') && !f.path.endsWith('__init__.py')).map((f) => f.path),
      ['handlers/resources/secret.py', 'handlers/resources/secret_finish.py', 'handlers/resources/note_id.py', 'handlers/resources/note_id_finish.py'],
    );
    const notes = text('handlers/resources/note_id.py');
    assert.match(
      notes,
      /@server\.resource\("notes:\/\/note\/\{id\}", name="note", description="A note\."\)\n {4}async def handler\(id: str, ctx: Context \| None = None\) -> Any:\n {8}variables = \{"id": id\}\n {8}uri = read_uri\(ctx, "notes:\/\/note\/\{id\}", variables\)\n {8}return await flow\(\{"uri": uri, "variables": variables\}, resume\(ctx, ID\)\)\n/,
    );
    assert.match(notes, /^from mrtr import .*\bread_uri\b/m);
    assert.doesNotMatch(notes, /asking_static_resource|server\.middleware/);
    assert.match(text('handlers/resources/note_id_finish.py'), /args\["uri"\] is the URI read, args\["variables"\]/);
    assert.match(text('mrtr.py'), /def read_uri\(ctx: Context \| None, template: str, variables: dict\[str, Any\]\) -> str:/);
    const mrtr = text('mrtr.py');
    assert.match(mrtr, /def asking_static_resource\(server: MCPServer, uri: str, id: str, flow: Flow\) -> ServerMiddleware\[Any\]:/);
    assert.match(mrtr, /if ctx\.method != "resources\/read" or not ctx\.params or ctx\.params\.get\("uri"\) != uri:\n {12}return await call_next\(ctx\)/);
    assert.match(mrtr, /outcome = await flow\(\{"uri": uri\}, resume\(params, id\)\)/);
    assert.match(mrtr, /def finished\(uri: str\) -> Any:/);
  });

  it('does not serve a template whose variables cannot be Python parameters, and says so when it starts', () => {
    const template = 'notes://k/{class}/{a);import os#}';
    const declared = { ...DECLARED_RESOURCES, resources: [], resourceTemplates: [{ uriTemplate: template, name: 'k' }] };
    const files = pythonServer('u', declared, handlerFlows([read('notes://k/1/2', 'ok')], [], [declared]));
    const handler = files.find((f) => f.path.startsWith('handlers/resources/') && !f.path.endsWith('_finish.py') && !f.path.endsWith('__init__.py'))!;
    assert.match(handler.text, /print\(".*not served, its variables class, a\);import os# are not Python parameter names", file=sys\.stderr\)/);
    assert.doesNotMatch(handler.text, /@server\.resource|def handler\(/);
    assert.doesNotMatch(handler.text, /^import os/m);
  });
});
