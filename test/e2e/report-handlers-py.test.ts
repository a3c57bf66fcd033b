// `report --handlers --lang py`: the migrated server for the official Python SDK (mcp 2.3.0), for
// the test fixture and the demo server (server-everything's is in report-handlers-everything.test.ts):
// every module py_compiles, the entry point imports and builds its MCPServer, it starts, answers
// server/discover, and a shadow run shows the legacy server's question flow (the fixture's static
// resource included, which asks from a middleware, and its templated one). Skipped loudly without python3 or the wheels.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  auditWithQuestions,
  checkPython,
  fillPythonStubs,
  generate,
  questionFlow,
  shadowAgainst,
  startPython,
  STUB_TEXT,
  toolsListDifferences,
} from '../support/migrated.js';
import { DEMO_ASKING, DEMO_SERVER, driveDemo, driveFixture, FIXTURE_CALLS, FIXTURE_NOTES, FIXTURE_SERVER } from '../support/migration-drives.js';
import type { Running } from '../support/processes.js';
import { pythonWithMcp2 } from '../support/python.js';
import { ALL_CAPS, inputRequired, post, rpc } from '../support/rpc.js';
import { skipOrFail } from '../support/skip.js';

const env = pythonWithMcp2();
const skip = skipOrFail('test/e2e/report-handlers-py.test.ts', 'skip' in env && env.skip);
const python = 'python' in env ? env.python : '';

interface Case {
  name: string;
  server: string[];
  drive: (url: string) => Promise<void>;
  proxyArgs?: string[];
  shadow: { tools: string[]; methods: string[] };
  /** `target primaryRounds/candidateRounds` of every comparison, sorted. */
  flows: string[];
}

const fixtureAsking = [...new Set(FIXTURE_CALLS.map(([n]) => n).filter((n) => n !== 'echo'))];
const CASES: Case[] = [
  {
    name: 'the test fixture',
    server: FIXTURE_SERVER,
    drive: driveFixture,
    shadow: { tools: fixtureAsking, methods: ['prompts/get', 'resources/read'] },
    flows: [
      'ask-all 1/1',
      'ask-if 0/0',
      'ask-if 1/1',
      'ask-name 1/1',
      'ask-twice 2/2',
      'ask-url 1/1',
      'elicit-then-sample 2/2',
      // A shadow line names a read by its template, as the audit does.
      ...FIXTURE_NOTES.map(() => 'fixture://note/{id} 1/1'),
      'fixture://secret 1/1',
      'greet 1/1',
      'list-roots 1/1',
      'summarize 1/1',
    ],
  },
  {
    name: 'the demo server',
    server: DEMO_SERVER,
    drive: driveDemo,
    shadow: { tools: DEMO_ASKING, methods: [] },
    flows: ['book_table 1/1', 'book_table 2/2', 'plan_trip 2/2', 'project_files 1/1', 'summarize 1/1'],
  },
];

/**
 * Each case's migrated server, built once for every suite that drives it: recording the audit,
 * generating and starting Python are most of this file's time.
 */
const built = new Map<Case, Promise<Running & { url: string }>>();
function migrated(c: Case): Promise<Running & { url: string }> {
  let server = built.get(c);
  if (server === undefined) {
    server = (async () => {
      const audit = await auditWithQuestions(c.server, c.drive, c.proxyArgs ?? []);
      const { dir } = generate(audit, c.server, 'py');
      fillPythonStubs(dir);
      checkPython(python, dir);
      return startPython(python, dir);
    })();
    built.set(c, server);
  }
  return server;
}
after(async () => {
  for (const server of built.values()) await (await server.catch(() => undefined))?.stop();
});

for (const c of CASES) {
  describe(`report --handlers --lang py over ${c.name}`, { skip }, () => {
    let server: Running & { url: string };
    before(async () => {
      server = await migrated(c);
    });

    it('starts and answers server/discover', async () => {
      const d = await rpc(server.url, 'server/discover', {}, { caps: ALL_CAPS });
      assert.deepEqual(d.body.result?.['supportedVersions'], ['2026-07-28']);
    });

    it('asks what the legacy server asked: a shadow run shows the same rounds and questions', async () => {
      const { records, counts } = await shadowAgainst(c.server, server.url, c.shadow, c.flows.length, c.drive, c.proxyArgs ?? []);
      assert.deepEqual(counts, { match: 0, differ: c.flows.length, candidate_error: 0, skipped: 0 }, JSON.stringify(records));
      const flows = records.map(questionFlow);
      for (const f of flows) assert.deepEqual(f.questions, [], `${f.target}: no question extra or missing`);
      assert.deepEqual(flows.map((f) => `${f.target} ${f.rounds}`).sort(), c.flows);
    });

    it('lists every tool, migrated or not, as the legacy server declared it: a shadow tools/list finds no difference', async () => {
      assert.deepEqual(await toolsListDifferences(c.server, server.url), []);
    });
  });
}

describe('report --handlers --lang py: rounds and keys', { skip }, () => {
  let server: Running & { url: string };
  before(async () => {
    server = await migrated(CASES[0]!);
  });

  it('asks ask-twice in two rounds under the keys first and second, the state sealed by the SDK', async () => {
    const first = inputRequired(await rpc(server.url, 'tools/call', { name: 'ask-twice', arguments: {} }, { caps: ALL_CAPS }));
    assert.deepEqual(Object.keys(first.inputRequests), ['first']);
    assert.doesNotMatch(String(first.requestState), /answers/, 'sealed, not plain JSON');
    const second = inputRequired(
      await rpc(
        server.url,
        'tools/call',
        { name: 'ask-twice', arguments: {}, requestState: first.requestState, inputResponses: { first: { action: 'accept', content: { first: 'a' } } } },
        { caps: ALL_CAPS },
      ),
    );
    assert.deepEqual(Object.keys(second.inputRequests), ['second']);
  });

  it('asks from a static resource (fixture://secret): its middleware asks, the SDK seals the state and shapes the answer, and it is still listed', async () => {
    const uri = 'fixture://secret';
    const first = inputRequired(await rpc(server.url, 'resources/read', { uri }, { caps: ALL_CAPS }));
    assert.deepEqual(Object.keys(first.inputRequests), ['hint']);
    assert.doesNotMatch(String(first.requestState), /answers/, 'sealed, not plain JSON');
    const done = await rpc(
      server.url,
      'resources/read',
      { uri, requestState: first.requestState, inputResponses: { hint: { action: 'accept', content: { hint: 'h' } } } },
      { caps: ALL_CAPS },
    );
    assert.deepEqual(done.body.result?.['contents'], [{ uri, mimeType: 'text/plain', text: STUB_TEXT }], JSON.stringify(done.body));
    const listed = await rpc(server.url, 'resources/list', {}, { caps: ALL_CAPS });
    const resources = (listed.body.result?.['resources'] ?? []) as Array<{ uri: string; name: string }>;
    assert.deepEqual(
      resources.map((r) => `${r.uri} ${r.name}`),
      [`${uri} secret`],
      'under the legacy name, not the function name',
    );
  });

  it('asks from the templated resource (fixture://note/{id}), listed as a template under its legacy name, and hands finish the URI read and its variables', async () => {
    const templates = await rpc(server.url, 'resources/templates/list', {}, { caps: ALL_CAPS });
    const listed = (templates.body.result?.['resourceTemplates'] ?? []) as Array<Record<string, unknown>>;
    assert.deepEqual(
      listed.map((t) => [t['uriTemplate'], t['name'], t['description'], t['mimeType']]),
      [['fixture://note/{id}', 'note', 'A note, read after a question.', 'text/plain']],
      JSON.stringify(templates.body),
    );
    const uri = 'fixture://note/7';
    const first = inputRequired(await rpc(server.url, 'resources/read', { uri }, { caps: ALL_CAPS }));
    assert.deepEqual(Object.keys(first.inputRequests), ['who']);
    const done = await rpc(
      server.url,
      'resources/read',
      { uri, requestState: first.requestState, inputResponses: { who: { action: 'accept', content: { who: 'Ada' } } } },
      { caps: ALL_CAPS },
    );
    assert.deepEqual(done.body.result?.['contents'], [{ uri, mimeType: 'text/plain', text: `${STUB_TEXT} id=7` }], JSON.stringify(done.body));
  });

  it('refuses the static resource to a client from before 2026-07-28, which cannot be asked mid-call', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const init = await fetch(server.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: { elicitation: {} }, clientInfo: { name: 'old', version: '1' } },
      }),
    });
    await init.text();
    const session = { ...headers, 'mcp-session-id': init.headers.get('mcp-session-id') ?? '', 'mcp-protocol-version': '2025-11-25' };
    await post(server.url, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), session);
    const read = await post(server.url, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 'fixture://secret' } }), session);
    assert.equal(read.body.error?.code, -32603, JSON.stringify(read.body));
  });
});
