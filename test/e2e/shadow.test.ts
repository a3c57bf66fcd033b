// Shadow comparison end to end: the proxy binary serves a client from a legacy server (v1 SDK)
// and compares with its migrated 2026-07-28 twin (v2 SDK) aside. The pair differs on purpose in
// exactly two ways (`average` no longer rounds down; `book` asks another question); the audit, the
// report and /metrics name exactly those. A stuck or absent candidate never delays the client.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ShadowRecord } from '../../src/audit/shadow-record.js';
import type { ReportModel } from '../../src/report/model.js';
import { connectClient, textOf } from '../support/client.js';
import { writeConfig } from '../support/config.js';
import { scrape } from '../support/metrics.js';
import { PROXY_BIN, startProxy } from '../support/processes.js';
import { COMPARISONS, LEGACY_TWIN, shadowConfig, startTwin } from '../support/shadow.js';
import { until } from '../support/wait.js';

const LEGACY = LEGACY_TWIN;
const node = JSON.stringify(process.execPath);
const SECRET = 'planted-secret-name-9931';

const shadowRecords = (file: string): ShadowRecord[] =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((r): r is ShadowRecord & Record<string, unknown> => r['kind'] === 'shadow');

/**
 * Serves every kind of shadowed request through the proxy (`args`: e.g. `--suspend hold`), checks
 * /metrics and the audit's shadow records, and returns the audit file.
 */
async function scenario(args: string[]): Promise<string> {
  const twin = await startTwin();
  const dir = mkdtempSync(join(tmpdir(), 'shadow-e2e-'));
  const audit = join(dir, 'audit.jsonl');
  const tools = '[add, greet, average, book, stamp]';
  const methods = '[tools/list, prompts/list, prompts/get, resources/list, resources/read]';
  const proxy = await startProxy([
    '--config',
    shadowConfig(
      twin.url,
      `{upstream: migrated, tools: ${tools}, methods: ${methods}, ignore: [structuredContent.generatedAt]}`,
      `audit: {file: ${JSON.stringify(audit)}}`,
    ),
    ...args,
  ]);
  const metricsUrl = proxy.url.replace(/\/mcp$/, '/metrics');
  const client = await connectClient(
    proxy.url,
    { elicitation: { form: {} } },
    {
      elicit: (p) => (p['message'] === 'How many people?' ? { action: 'accept', content: { people: 2 } } : { action: 'accept', content: { name: SECRET } }),
    },
  );
  try {
    await client.listTools();
    await client.listPrompts();
    await client.getPrompt({ name: 'brief', arguments: { topic: 'twins' } });
    await client.listResources();
    await client.readResource({ uri: 'twin://notes' });
    assert.equal(textOf(await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })), '3');
    assert.equal(textOf(await client.callTool({ name: 'greet', arguments: {} })), `Hello, ${SECRET}!`);
    // The client is served by the legacy server: rounded down.
    assert.equal(textOf(await client.callTool({ name: 'average', arguments: { values: [1, 2] } })), '1');
    assert.equal(textOf(await client.callTool({ name: 'book', arguments: {} })), 'booked for 2');
    assert.equal(textOf(await client.callTool({ name: 'stamp', arguments: {} })), 'value 42');
    assert.equal(textOf(await client.callTool({ name: 'delete-all', arguments: {} })), 'deleted');
    const compared = async () => {
      const s = await scrape(metricsUrl);
      const n = (outcome: string) => s.samples.filter((x) => x.name === COMPARISONS && x.labels['outcome'] === outcome).reduce((a, x) => a + x.value, 0);
      return { match: n('match'), differ: n('differ'), failed: n('candidate_error'), skipped: n('skipped') };
    };
    // Five lists and reads, five shadowed tools (the client may list tools again on its own).
    await until(
      async () => {
        const c = await compared();
        return c.match + c.differ >= 10;
      },
      10_000,
      'ten comparisons',
    );
    const counts = await compared();
    assert.deepEqual({ differ: counts.differ, failed: counts.failed, skipped: counts.skipped }, { differ: 2, failed: 0, skipped: 0 });
    const s = await scrape(metricsUrl);
    assert.equal(s.value(COMPARISONS, { upstream: 'legacy', method: 'tools/call', outcome: 'differ' }), 2);
    assert.equal(s.value(COMPARISONS, { upstream: 'legacy', method: 'tools/call', outcome: 'match' }), 3);
    assert.equal(s.value(COMPARISONS, { upstream: 'legacy', method: 'resources/read', outcome: 'match' }), 1);
    assert.doesNotMatch(twin.stderr(), /tools\/call delete-all/, 'a tool not listed never reaches the candidate');
  } finally {
    await client.close();
    assert.equal(await proxy.stop('SIGTERM'), 0);
    await twin.stop();
  }

  const records = shadowRecords(audit);
  assert.deepEqual(
    records.map((r) => [r.method, r.target, r.outcome, r.differences.map((d) => `${d.path} ${d.kind}`)]),
    [
      ['tools/call', 'average', 'differ', ['content[0].text changed']],
      ['tools/call', 'book', 'differ', ['inputRequests extra']],
    ],
  );
  const book = records[1]!;
  assert.deepEqual(book.differences[0]!.question, {
    method: 'elicitation/create',
    elicitationMode: 'form',
    schema: { properties: { people: { type: 'integer', required: true }, time: { type: 'string', required: true } } },
  });
  assert.equal(book.primaryRounds, 1);
  assert.equal(records[0]!.differences[0]!.primary, undefined, 'no values without --audit-content');
  assert.doesNotMatch(readFileSync(audit, 'utf8'), new RegExp(SECRET), 'the answer the candidate got is not in the audit');

  return audit;
}

describe('shadow comparison', () => {
  it('reports exactly the deliberate differences of a migrated twin when the asking tools are held', async () => {
    await scenario(['--suspend', 'hold']);
  });

  it('reports exactly the same when they are replayed, in the audit, the report and /metrics', async () => {
    const audit = await scenario(['--suspend', 'replay']);
    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, [PROXY_BIN, 'report', '--audit', audit, '--format', 'json', '--', process.execPath, LEGACY], {
      timeout: 20_000,
    });
    const model = JSON.parse(stdout) as ReportModel;
    assert.deepEqual(
      model.shadow.map((i) => [i.name, i.candidate, i.differed, i.differences.map((d) => `${d.path} ${d.kind}`)]),
      [
        ['average', 'migrated', 1, ['content[0].text changed']],
        ['book', 'migrated', 1, ['inputRequests extra']],
      ],
    );
    const md = (await run(process.execPath, [PROXY_BIN, 'report', '--audit', audit, '--', process.execPath, LEGACY], { timeout: 20_000 })).stdout;
    // Audited as upstream `legacy` of a configuration file, reported as the command line's server.
    assert.match(md, /## Shadow differences\n\n### tools\/call `average` \(default → migrated\)/);
    assert.match(md, /inputRequests extra: elicitation\/create \(form\): people: integer, time: string \(1×\)/);
  });

  it('never delays the client: a stuck candidate times out, an absent one fails, both are counted', async () => {
    const stuck = await startTwin({ TWIN_HANG: '1' });
    const gone = await startTwin();
    await gone.stop();
    const legacy = `stdio: {command: ${node}, args: [${JSON.stringify(LEGACY)}]}`;
    const config = writeConfig(`upstreams:
  slow:
    ${legacy}
    shadow: {upstream: stuck, tools: [add], timeoutMs: 1500, maxConcurrent: 1}
  lost:
    ${legacy}
    shadow: {upstream: gone, tools: [add]}
  stuck: {era: modern, http: {url: ${JSON.stringify(stuck.url)}}}
  gone: {era: modern, http: {url: ${JSON.stringify(gone.url)}}}
`);
    const proxy = await startProxy(['--config', config]);
    const base = new URL(proxy.url).origin;
    const slow = await connectClient(`${base}/servers/slow/mcp`, {});
    const lost = await connectClient(`${base}/servers/lost/mcp`, {});
    const bounded = <T>(p: Promise<T>): Promise<T> =>
      Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('the client answer was delayed')), 5000))]);
    try {
      const add = (c: typeof slow) => bounded(c.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).then(textOf);
      assert.equal(await add(slow), '3');
      // The first comparison still waits on the stuck candidate: with maxConcurrent 1 this one is skipped.
      assert.equal(await add(slow), '3');
      assert.equal(await add(lost), '3');
      const value = async (upstream: string, outcome: string) =>
        (await scrape(`${base}/metrics`)).value(COMPARISONS, { upstream, method: 'tools/call', outcome });
      await until(
        async () => (await value('slow', 'candidate_error')) === 1 && (await value('lost', 'candidate_error')) === 1,
        8000,
        'both candidates counted as failed',
      );
      assert.equal(await value('slow', 'skipped'), 1);
      assert.equal(await value('slow', 'match'), 0);
      const failures = proxy
        .stderr()
        .split('\n')
        .filter((l) => l.includes('shadow candidate failed'))
        .map((l) => JSON.parse(l) as { upstream: string; candidate: string; error: string })
        .map((f) => [f.upstream, f.candidate, f.error.split(':')[0]])
        .sort();
      assert.deepEqual(failures, [
        ['lost', 'gone', 'unreachable'],
        ['slow', 'stuck', 'timed out'],
      ]);
      assert.match(stuck.stderr(), /twin: tools\/call add/, 'the stuck candidate did get the call');
    } finally {
      await Promise.all([slow.close(), lost.close()]);
      assert.equal(await proxy.stop('SIGTERM'), 0);
      await stuck.stop();
    }
  });
});
