// From audit to migrated server: the test fixture's asking tools, prompt and resources (a static
// one and a template) are audited with --audit-questions, `report --handlers --lang ts` writes their 2026-07-28 server, which
// builds with tsc strict, starts, answers server/discover and asks round by round under stable
// keys; a second generation keeps the author's finish files.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  auditWithQuestions,
  buildTypescript,
  fillTypescriptStubs,
  generate,
  questionFlow,
  STUB_TEXT,
  shadowAgainst,
  startTypescript,
  toolsListDifferences,
} from '../support/migrated.js';
import { driveFixture, FIXTURE_CALLS, FIXTURE_NOTES, FIXTURE_SERVER as SERVER } from '../support/migration-drives.js';
import type { Running } from '../support/processes.js';
import { ALL_CAPS, inputRequired, rpc } from '../support/rpc.js';

describe('report --handlers --lang ts over the test fixture', () => {
  let audit: string;
  let dir: string;
  let stdout: string;
  let server: Running & { url: string };
  before(async () => {
    audit = await auditWithQuestions(SERVER, driveFixture);
    ({ dir, stdout } = generate(audit, SERVER));
    fillTypescriptStubs(dir);
    buildTypescript(dir);
    server = await startTypescript(dir);
  });
  after(async () => {
    await server?.stop();
  });

  it('writes one handler per asking tool, prompt and resource, and says so', () => {
    // The two reads of fixture://note/{id} make one handler, for the template.
    assert.match(stdout, /default: 11 migrated handler\(s\)/);
    for (const f of ['tools/ask-name', 'tools/ask-if', 'tools/ask-all', 'prompts/greet', 'resources/secret', 'resources/note-id'])
      assert.match(stdout, new RegExp(`wrote .*src/${f}\\.finish\\.ts`));
    assert.doesNotMatch(stdout, /placeholder/, 'every question was audited with its text');
  });

  it('never records an answer or an argument with --audit-questions', () => {
    const text = readFileSync(audit, 'utf8');
    assert.match(text, /"message":"What is your name\?"/);
    assert.doesNotMatch(text, /Ada|teal|sampled text|"arguments"/);
  });

  it('answers server/discover and lists the migrated and the not migrated tools', async () => {
    const d = await rpc(server.url, 'server/discover', {}, { caps: ALL_CAPS });
    assert.equal(d.status, 200);
    assert.deepEqual(d.body.result?.['supportedVersions'], ['2026-07-28']);
    const tools = (((await rpc(server.url, 'tools/list', {}, { caps: ALL_CAPS })).body.result?.['tools'] as Array<{ name: string }> | undefined) ?? []).map(
      (t) => t.name,
    );
    assert.ok(tools.includes('ask-twice') && tools.includes('echo') && tools.includes('hang'), tools.join(','));
    const echo = await rpc(server.url, 'tools/call', { name: 'echo', arguments: { text: 'x' } }, { caps: ALL_CAPS });
    assert.match(JSON.stringify(echo.body.result), /not migrated yet/);
  });

  it('lists every tool, migrated or not, as the legacy server declared it: a shadow tools/list finds no difference', async () => {
    assert.deepEqual(await toolsListDifferences(SERVER, server.url), []);
  });

  it('asks round by round under stable keys, carrying the answers in a sealed requestState', async () => {
    const first = inputRequired(await rpc(server.url, 'tools/call', { name: 'ask-twice', arguments: {} }, { caps: ALL_CAPS }));
    assert.deepEqual(Object.keys(first.inputRequests), ['first']);
    assert.match(String(first.requestState), /^v1\./, "the SDK codec's wire form");
    const second = inputRequired(
      await rpc(
        server.url,
        'tools/call',
        { name: 'ask-twice', arguments: {}, requestState: first.requestState, inputResponses: { first: { action: 'accept', content: { first: 'a' } } } },
        { caps: ALL_CAPS },
      ),
    );
    assert.deepEqual(Object.keys(second.inputRequests), ['second']);
    const done = await rpc(
      server.url,
      'tools/call',
      { name: 'ask-twice', arguments: {}, requestState: second.requestState, inputResponses: { second: { action: 'accept', content: { second: 'b' } } } },
      { caps: ALL_CAPS },
    );
    assert.match(JSON.stringify(done.body.result), new RegExp(STUB_TEXT));
    const ahead = inputRequired(
      await rpc(
        server.url,
        'tools/call',
        {
          name: 'ask-twice',
          arguments: {},
          inputResponses: { first: { action: 'accept', content: { first: 'a' } }, second: { action: 'accept', content: { second: 'b' } } },
        },
        { caps: ALL_CAPS },
      ),
    );
    assert.deepEqual(Object.keys(ahead.inputRequests), ['first'], 'answers to questions not asked are not taken');
    const tampered = await rpc(
      server.url,
      'tools/call',
      { name: 'ask-twice', arguments: {}, requestState: `${String(second.requestState).slice(0, -2)}xx`, inputResponses: {} },
      { caps: ALL_CAPS },
    );
    assert.equal(tampered.body.error?.code, -32602, 'a state that fails the codec is refused');
    const all = inputRequired(await rpc(server.url, 'tools/call', { name: 'ask-all', arguments: {} }, { caps: ALL_CAPS }));
    assert.deepEqual(Object.keys(all.inputRequests).sort(), ['color', 'roots', 'sampling']);
  });

  it('lists the resources under their legacy names, and the asking template as a template', async () => {
    const listed = await rpc(server.url, 'resources/list', {}, { caps: ALL_CAPS });
    const resources = (listed.body.result?.['resources'] ?? []) as Array<{ uri: string; name: string }>;
    assert.deepEqual(resources.map((r) => `${r.uri} ${r.name}`).sort(), ['fixture://secret secret', 'fixture://static static']);
    const templates = await rpc(server.url, 'resources/templates/list', {}, { caps: ALL_CAPS });
    assert.deepEqual(templates.body.result?.['resourceTemplates'], [
      { uriTemplate: 'fixture://note/{id}', name: 'note', description: 'A note, read after a question.', mimeType: 'text/plain' },
    ]);
  });

  it('asks from the templated resource and hands finish the URI read and its variables', async () => {
    const uri = 'fixture://note/7';
    const first = inputRequired(await rpc(server.url, 'resources/read', { uri }, { caps: ALL_CAPS }));
    assert.deepEqual(Object.keys(first.inputRequests), ['who']);
    const done = await rpc(
      server.url,
      'resources/read',
      { uri, requestState: first.requestState, inputResponses: { who: { action: 'accept', content: { who: 'Ada' } } } },
      { caps: ALL_CAPS },
    );
    assert.deepEqual(done.body.result?.['contents'], [{ uri, text: `${STUB_TEXT} id=7` }], JSON.stringify(done.body));
  });

  it('asks what the legacy server asked: a shadow run shows the same rounds and questions for every call', async () => {
    const asking = [...new Set(FIXTURE_CALLS.map(([name]) => name).filter((n) => n !== 'echo'))];
    const expected = FIXTURE_CALLS.length - 1 + 2 + FIXTURE_NOTES.length;
    const { records, counts } = await shadowAgainst(SERVER, server.url, { tools: asking, methods: ['prompts/get', 'resources/read'] }, expected, driveFixture);
    assert.deepEqual(counts, { match: 0, differ: expected, candidate_error: 0, skipped: 0 }, 'every comparison differs in the stub content only');
    const flows = records.map(questionFlow);
    const rounds: Record<string, number> = { 'ask-twice': 2, 'elicit-then-sample': 2 };
    for (const f of flows) {
      assert.deepEqual(f.questions, [], `${f.target}: no question extra or missing`);
      assert.equal(f.error, undefined);
      const n = f.target === 'ask-if' ? f.rounds.split('/')[0] : String(rounds[f.target] ?? 1);
      assert.equal(f.rounds, `${n}/${n}`, `${f.target}: the same rounds`);
    }
    // Comparisons end in any order.
    assert.deepEqual(
      flows.map((f) => `${f.target} ${f.rounds}`).sort(),
      FIXTURE_CALLS.filter(([n]) => n !== 'echo')
        .map(([n, a]) => `${n} ${n === 'ask-if' && a['ask'] === false ? '0/0' : `${rounds[n] ?? 1}/${rounds[n] ?? 1}`}`)
        // A shadow line names a read by its template, as the audit does.
        .concat(['greet 1/1', 'fixture://secret 1/1', ...FIXTURE_NOTES.map(() => 'fixture://note/{id} 1/1')])
        .sort(),
    );
  });

  it('writes the handlers of an audit recorded under another upstream name, as the report does', () => {
    const elsewhere = join(dirname(audit), 'audit-tickets.jsonl');
    writeFileSync(elsewhere, readFileSync(audit, 'utf8').replaceAll('"upstream":"default"', '"upstream":"tickets"'));
    assert.match(readFileSync(elsewhere, 'utf8'), /"upstream":"tickets"/);
    assert.match(generate(elsewhere, SERVER).stdout, /default: 11 migrated handler\(s\)/);
  });

  it('generates again without replacing a finish file the author wrote', () => {
    const mine = join(dir, 'src', 'tools', 'ask-name.finish.ts');
    writeFileSync(mine, `${readFileSync(mine, 'utf8')}// mine\n`);
    const again = generate(audit, SERVER, 'ts', dir);
    assert.match(again.stdout, /kept .*ask-name\.finish\.ts \(yours\)/);
    assert.match(again.stdout, /wrote .*src\/tools\/ask-name\.ts/);
    assert.match(readFileSync(mine, 'utf8'), /\/\/ mine\n$/);
  });
});
