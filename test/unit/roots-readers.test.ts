// Which tools of a server that asks for the roots outside calls read them, from plain audit
// records and --roots-tools; the flow, the generated handlers and the report that follow.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AuditRecord, AuditedRequest } from '../../src/audit/record.js';
import { parseReportArgs } from '../../src/cli/report.js';
import { handlerFlows } from '../../src/report/handler-flow.js';
import { buildReport } from '../../src/report/model.js';
import { renderHtml } from '../../src/report/render-html.js';
import { renderMarkdown } from '../../src/report/render-md.js';
import { rootsReading, unknownRootsTools } from '../../src/report/roots-readers.js';
import { pythonServer } from '../../src/report/server-py.js';
import { typescriptServer } from '../../src/report/server-ts.js';

const form: AuditedRequest = {
  round: 1,
  key: 'elicitation-1',
  method: 'elicitation/create',
  elicitationMode: 'form',
  schema: { properties: { name: { type: 'string', required: true } } },
  action: 'accept',
  serverMs: 1,
  question: { method: 'elicitation/create', mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } },
};

/** A call after the proxy's roots round; `named`: its result named the roots (undefined: not checked). */
const call = (target: string, named: boolean | undefined, requests: AuditedRequest[] = [], upstream = 'u'): AuditRecord => ({
  ts: '2026-12-01T00:00:00.000Z',
  upstream,
  method: 'tools/call',
  target,
  mode: 'hold',
  rounds: requests.length,
  durationMs: 5,
  finalServerMs: 1,
  requests,
  outcome: { kind: 'complete', isError: false },
  rootsRound: true,
  ...(named === undefined ? {} : { resultNamesRoots: named }),
});

const EVERYTHING = [call('get-roots-list', true), call('get-roots-list', false), call('echo', false), call('trigger-elicitation', false, [form])];

describe('rootsReading', () => {
  it('judges a tool to read the roots when one of its audited results named them, and no other', () => {
    const [u] = rootsReading(EVERYTHING);
    assert.equal(u?.roundCalls, 4);
    assert.deepEqual(
      u?.items.map((i) => `${i.name} reads=${i.reads} named=${i.named}/${i.checked} of ${i.calls}`),
      ['echo reads=false named=0/1 of 1', 'get-roots-list reads=true named=1/2 of 2', 'trigger-elicitation reads=false named=0/1 of 1'],
    );
  });

  it('adds the tools the author names, and says nothing of a server whose calls had no roots round', () => {
    const [u] = rootsReading(EVERYTHING, ['echo']);
    assert.deepEqual(
      u?.items.filter((i) => i.reads).map((i) => `${i.name}${i.byOption ? ' (named)' : ''}`),
      ['echo (named)', 'get-roots-list'],
    );
    const plain = { ...call('x', undefined), upstream: 'v' };
    delete plain.rootsRound;
    assert.deepEqual(rootsReading([plain]), []);
    assert.deepEqual(
      rootsReading([plain], ['x']).map((r) => [r.upstream, r.roundCalls, r.items.map((i) => i.name)]),
      [['v', 0, ['x']]],
    );
  });

  it('cannot judge results audited without --audit-questions', () => {
    const [u] = rootsReading([call('get-roots-list', undefined)]);
    assert.deepEqual(u?.items[0] && { reads: u.items[0].reads, checked: u.items[0].checked, calls: u.items[0].calls }, { reads: false, checked: 0, calls: 1 });
  });

  it('refuses a --roots-tools name that is no audited tool, naming the audited ones', () => {
    assert.equal(unknownRootsTools(EVERYTHING, ['echo']), undefined);
    assert.equal(
      unknownRootsTools(EVERYTHING, ['echo', 'get-sum']),
      "--roots-tools: 'get-sum' is not an audited tool (audited: echo, get-roots-list, trigger-elicitation)",
    );
  });

  it('takes --roots-tools as a list, repeated or not, and refuses an empty name', () => {
    const p = parseReportArgs(['--roots-tools', 'a,b', '--roots-tools', 'c', '--', 'node', 's.js']);
    assert.ok(!p.help);
    assert.deepEqual(p.rootsTools, ['a', 'b', 'c']);
    assert.throws(() => parseReportArgs(['--roots-tools', 'a,', '--', 'node', 's.js']), /--roots-tools: an empty tool name/);
  });
});

describe('handlers of tools that read the roots', () => {
  const flows = handlerFlows(EVERYTHING, rootsReading(EVERYTHING));

  it('asks for the roots in round 1 under the key roots, then what the legacy tool asked', () => {
    assert.deepEqual(
      flows.map((f) => f.name),
      ['get-roots-list', 'trigger-elicitation'],
      'echo never asked and reads no roots: not migrated',
    );
    const roots = flows[0]!;
    assert.equal(roots.rootsFirst, "its result named the caller's roots in 1 of 2 audited call(s)");
    const step = roots.start[0]!.to!;
    assert.deepEqual([step.round, step.asks.map((a) => `${a.key} ${a.method}`)], [1, ['roots roots/list']]);
    assert.equal(step.next[0]!.to, undefined, 'then the call ends');
    const both = handlerFlows(EVERYTHING, rootsReading(EVERYTHING, ['trigger-elicitation'])).find((f) => f.name === 'trigger-elicitation')!;
    const first = both.start[0]!.to!;
    assert.deepEqual(
      first.asks.map((a) => a.key),
      ['roots'],
    );
    assert.deepEqual(first.next[0]!.when, {}, 'a roots answer has no action to branch on');
    assert.deepEqual([first.next[0]!.to!.round, first.next[0]!.to!.asks.map((a) => a.key)], [2, ['name']]);
  });

  it("writes the SDK's roots request in TypeScript and Python, saying why", () => {
    const ts = typescriptServer('u', undefined, flows).find((f) => f.path === 'src/tools/get-roots-list.ts')!.text;
    assert.match(
      ts,
      /\/\/ Round 1\.\n {2}if \(!answered\(answers, \["roots"\]\)\) \{\n {4}return ask\(ctx, ID, answers, \{\n(?: {6}\/\/ .*\n)+ {6}"roots": inputRequired\.listRoots\(\),/,
    );
    assert.match(ts, /asked for the roots outside calls \(at initialize\)/);
    const py = pythonServer('u', undefined, flows).find((f) => f.path === 'handlers/tools/get_roots_list.py')!.text;
    assert.match(py, /"roots": \{"method": "roots\/list"\},/);
    assert.match(py, /It asks for the client's roots first/);
  });
});

describe('the report on roots read outside calls', () => {
  const m = buildReport([], EVERYTHING, { files: ['a.jsonl'], skippedLines: 0 }, new Date(0), [], ['echo']);

  it('proposes the roots round first for the tools judged to read them', () => {
    const item = (n: string) => m.items.find((i) => i.name === n)!;
    assert.deepEqual(item('get-roots-list').migration.inputRequests, [{ round: 1, key: 'roots', method: 'roots/list', params: {} }]);
    assert.equal(item('echo').migration.readsRoots, 'named by --roots-tools');
    assert.equal(item('trigger-elicitation').migration.readsRoots, undefined);
    assert.deepEqual(
      item('trigger-elicitation').migration.inputRequests.map((p) => `${p.round} ${p.key}`),
      ['1 name'],
    );
  });

  it('says the server reads roots outside calls, which tools read them and why, and how to add others', () => {
    for (const text of [renderMarkdown(m), renderHtml(m)]) {
      assert.match(text, /Roots read outside calls/);
      assert.match(text, /asks for the client(&#39;|')s roots outside calls \(at initialize\): 4 audited call\(s\)/);
      assert.match(text, /get-roots-list(<\/code>|`)?: its result named the caller(&#39;|')s roots in 1 of 2 audited call\(s\)/);
      assert.match(text, /echo(<\/code>|`)?: named by --roots-tools/);
      assert.match(text, /trigger-elicitation(<\/code>|`)?: its result named no root in 1 audited call\(s\)/);
      assert.match(text, /--roots-tools NAME\[,NAME\.\.\.\]/);
    }
  });
});
