// The audit and the report over the official everything server: every tool that asks is named
// with the method it asks with; the three formats render; the HTML is self-contained.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReportModel } from '../../src/report/model.js';
import { connectClient } from '../support/client.js';
import { EVERYTHING, FIXTURE, PROXY_BIN, startProxy } from '../support/processes.js';
import { ALL_CAPS, inputRequired, rpc } from '../support/rpc.js';

const ASKING: Record<string, string> = {
  'trigger-elicitation-request': 'elicitation/create',
  'trigger-url-elicitation': 'elicitation/create',
  'trigger-sampling-request': 'sampling/createMessage',
};

function report(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [PROXY_BIN, 'report', ...args], { encoding: 'utf8', timeout: 30_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('report over the everything server', () => {
  const dir = mkdtempSync(join(tmpdir(), 'report-'));
  const audit = join(dir, 'audit.jsonl');
  const server = ['--', process.execPath, EVERYTHING, 'stdio'];
  before(async () => {
    const proxy = await startProxy(['--audit', audit, '--spare-sessions', '0', ...server]);
    try {
      // The proxy's roots round first: the call then runs on a session the server already asked
      // for roots after initialize, so get-roots-list reads them without asking inside the call.
      const roots = inputRequired(await rpc(proxy.url, 'tools/call', { name: 'get-roots-list', arguments: {} }, { caps: ALL_CAPS }));
      await rpc(
        proxy.url,
        'tools/call',
        { name: 'get-roots-list', arguments: {}, requestState: roots.requestState, inputResponses: { [Object.keys(roots.inputRequests)[0]!]: { roots: [] } } },
        { caps: ALL_CAPS },
      );
      const client = await connectClient(proxy.url);
      await client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
      await client.callTool({ name: 'trigger-url-elicitation', arguments: { url: 'https://example.com/consent' } });
      await client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'hello', maxTokens: 10 } });
      await client.callTool({ name: 'echo', arguments: { message: 'x' } });
      await client.getPrompt({ name: 'simple-prompt' });
      await client.close();
    } finally {
      assert.equal(await proxy.stop(), 0);
    }
  });
  after(() => {});

  it('names every tool that asks, with its method, and what migrating it takes', () => {
    const r = report(['--audit', audit, '--format', 'json', ...server]);
    assert.equal(r.status, 0, r.stderr);
    const m = JSON.parse(r.stdout) as ReportModel;
    assert.equal(m.upstreams[0]!.server?.name, 'mcp-servers/everything');
    const asking = Object.fromEntries(m.items.filter((i) => i.asks === 'yes').map((i) => [i.name, i.methods.join(',')]));
    assert.deepEqual(asking, ASKING);
    const byName = new Map(m.items.map((i) => [i.name, i]));
    assert.equal(byName.get('echo')!.asks, 'no');
    assert.equal(byName.get('get-roots-list')!.asks, 'no', 'its roots were given at initialize, not asked in the call');
    assert.equal(byName.get('simple-prompt')!.asks, 'no');
    assert.equal(byName.get('get-sum')!.asks, 'unknown', 'declared but never called');
    assert.equal(byName.get('trigger-url-elicitation')!.questions[0]!.elicitationMode, 'url');
    const elicit = byName.get('trigger-elicitation-request')!;
    const [input] = elicit.migration.inputRequests;
    assert.equal(input!.method, 'elicitation/create');
    const schema = (input!.params['requestedSchema'] as { properties: Record<string, { type: string }> }).properties;
    assert.equal(schema['email']!.type, 'string');
    assert.equal(schema['integer']!.type, 'integer');
    assert.equal(byName.get('get-roots-list')!.migration.replay.safe, 'yes', 'get-roots-list declares readOnlyHint');
    assert.ok(m.audit.records >= 6);
  });

  it('renders Markdown and a self-contained HTML file with charts', () => {
    const md = report(['--audit', audit, ...server]);
    assert.equal(md.status, 0, md.stderr);
    for (const name of Object.keys(ASKING)) assert.match(md.stdout, new RegExp(`### tool \`${name}\``));
    const out = join(dir, 'report.html');
    const html = report(['--audit', audit, '--format', 'html', '--out', out, ...server]);
    assert.equal(html.status, 0, html.stderr);
    const text = readFileSync(out, 'utf8');
    assert.equal(text.match(/<svg /g)?.length, 3);
    assert.doesNotMatch(text, /<script|<link|\bsrc=|url\(/, 'nothing is loaded from elsewhere');
    for (const name of Object.keys(ASKING)) assert.match(text, new RegExp(`<code>${name}</code>`));
  });

  it('refuses what it does not know, precisely', () => {
    assert.match(report(['--audit', audit]).stderr, /report: name the server/);
    assert.match(report(['--format', 'pdf', ...server]).stderr, /--format: expected md, html or json, got 'pdf'/);
    assert.match(report(['--port', '1', ...server]).stderr, /Unknown option '--port'/);
    assert.equal(report(['--format', 'pdf', ...server]).status, 2);
    const missing = report(['--audit', join(dir, 'nope.jsonl'), ...server]);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /cannot read the audit/);
  });
});

describe('report of an audit written under another upstream name', () => {
  const dir = mkdtempSync(join(tmpdir(), 'report-names-'));
  const audit = join(dir, 'audit.jsonl');
  const config = join(dir, 'proxy.yaml');
  writeFileSync(config, `upstreams:\n  tickets:\n    stdio: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(FIXTURE)}] }\n`);
  before(async () => {
    const proxy = await startProxy(['--config', config, '--audit', audit]);
    try {
      const r = await rpc(proxy.url.replace(/\/mcp$/, '/servers/tickets/mcp'), 'tools/call', { name: 'echo', arguments: { text: 'x' } });
      assert.ok(r.body.result, JSON.stringify(r.body));
    } finally {
      assert.equal(await proxy.stop(), 0);
    }
  });

  it("attributes a file-named upstream's calls to the server named on the command line, and says so", () => {
    const r = report(['--audit', audit, '--format', 'json', '--', process.execPath, FIXTURE]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /upstream 'tickets': reported as the server named on the command line/);
    const m = JSON.parse(r.stdout) as ReportModel;
    const echo = m.items.filter((i) => i.name === 'echo');
    assert.deepEqual(
      echo.map((i) => [i.upstream, i.declared, i.calls]),
      [['default', true, 1]],
    );
  });

  it('warns when the audited names match none of a configuration file', () => {
    writeFileSync(
      join(dir, 'other.yaml'),
      `upstreams:\n  billing:\n    stdio: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(FIXTURE)}] }\n`,
    );
    const r = report(['--audit', audit, '--format', 'json', '--config', join(dir, 'other.yaml')]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /audited upstream 'tickets' matches none of the inspected ones \('billing'\)/);
  });
});
