// GET /metrics and the access log of a running proxy in front of the stdio fixture: each counter,
// histogram and gauge moves as a pass-through call, a one-round interaction, a tampered
// requestState and an expired interaction make it move; the access log has one line per request.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { textOf } from '../support/client.js';
import { writeConfig } from '../support/config.js';
import { delta, scrape, type Scrape } from '../support/metrics.js';
import { FIXTURE, startProxy, type ProxyProcess } from '../support/processes.js';
import { inputRequired, rpc } from '../support/rpc.js';
import { until } from '../support/wait.js';

const ELICIT = { elicitation: {} };
const U = { upstream: 'default' };

/** The access-log lines written so far. */
function accessLines(proxy: ProxyProcess): Array<Record<string, unknown>> {
  return proxy
    .stderr()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l['message'] === 'access');
}

async function lineFor(proxy: ProxyProcess, seen: number): Promise<Record<string, unknown>> {
  await until(() => accessLines(proxy).length > seen, 5000, 'an access-log line');
  return accessLines(proxy)[seen]!;
}

describe('metrics and access log', () => {
  let proxy: ProxyProcess;
  let metricsUrl: string;
  /** An upstream whose interactions expire after 1 s. */
  let shortUrl: string;
  before(async () => {
    const fixture = `{ command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(FIXTURE)}] }`;
    const config = writeConfig(`default: default
upstreams:
  default: { stdio: ${fixture} }
  short: { stdio: ${fixture}, interactionTtl: 1 }
`);
    proxy = await startProxy(['--config', config]);
    metricsUrl = proxy.url.replace(/\/mcp$/, '/metrics');
    shortUrl = proxy.url.replace(/\/mcp$/, '/servers/short/mcp');
  });
  after(async () => {
    await proxy?.stop();
  });

  it('serves the process metrics of prom-client', async () => {
    const m = await scrape(metricsUrl);
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_seconds']) {
      assert.ok(m.has(name), name);
    }
  });

  it('counts a pass-through call and times it and its legacy request', async () => {
    const before = await scrape(metricsUrl);
    const logged = accessLines(proxy).length;
    const r = await rpc(proxy.url, 'tools/list', {});
    assert.equal(r.status, 200);
    await until(async () => delta(before, await scrape(metricsUrl), 'mrtr_requests_total', { ...U, method: 'tools/list', outcome: 'complete' }) === 1);
    const now = await scrape(metricsUrl);
    assert.equal(delta(before, now, 'mrtr_request_duration_seconds_count', { ...U, method: 'tools/list' }), 1);
    assert.equal(delta(before, now, 'mrtr_upstream_request_duration_seconds_count', { ...U, method: 'tools/list' }), 1);
    assert.ok(delta(before, now, 'mrtr_session_wait_seconds_count') >= 1);
    assert.equal(delta(before, now, 'mrtr_requests_total', { ...U, method: 'tools/list', outcome: 'error' }), 0);
    assert.ok(now.value('mrtr_legacy_sessions', { ...U, state: 'idle' }) >= 1, 'the session it used is idle again');
    assert.equal(now.value('mrtr_legacy_sessions', { ...U, state: 'exclusive' }), 0);

    const line = await lineFor(proxy, logged);
    assert.equal(line['level'], 'info');
    assert.equal(line['upstream'], 'default');
    assert.equal(line['method'], 'tools/list');
    assert.equal(line['mode'], 'passthrough');
    assert.equal(line['status'], 200);
    assert.equal(line['code'], undefined);
    assert.equal(typeof line['durationMs'], 'number');
    assert.match(String(line['principal']), /^[0-9a-f]{16}$/, 'the principal is hashed');
    assert.notEqual(line['principal'], 'anonymous');
  });

  it('counts an interaction with one round: its input, its waiting, its end and its rounds', async () => {
    const before = await scrape(metricsUrl);
    const logged = accessLines(proxy).length;
    const first = inputRequired(await rpc(proxy.url, 'tools/call', { name: 'ask-name', arguments: {} }, { caps: ELICIT }));
    await until(async () => delta(before, await scrape(metricsUrl), 'mrtr_requests_total', { ...U, method: 'tools/call', outcome: 'input_required' }) === 1);
    const waiting = await scrape(metricsUrl);
    assert.equal(delta(before, waiting, 'mrtr_input_required_total', { ...U, method: 'tools/call', input: 'elicitation' }), 1);
    assert.equal(delta(before, waiting, 'mrtr_input_required_total', { ...U, method: 'tools/call', input: 'sampling' }), 0);
    assert.equal(waiting.value('mrtr_interactions_waiting', { ...U, mode: 'suspended' }), 1);
    assert.equal(waiting.value('mrtr_legacy_sessions', { ...U, state: 'exclusive' }), 0, 'the suspended call holds no session of its own');
    assert.equal(waiting.value('mrtr_legacy_sessions', { ...U, state: 'shared' }), 1, 'it is parked on a shared one');

    const [key] = Object.keys(first.inputRequests);
    const done = await rpc(
      proxy.url,
      'tools/call',
      { name: 'ask-name', arguments: {}, inputResponses: { [key!]: { action: 'accept', content: { name: 'Ann' } } }, requestState: first.requestState },
      { caps: ELICIT },
    );
    assert.equal(textOf(done.body.result), 'Hello, Ann!');
    let after!: Scrape;
    await until(async () => {
      after = await scrape(metricsUrl);
      return delta(before, after, 'mrtr_requests_total', { ...U, method: 'tools/call', outcome: 'complete' }) === 1;
    });
    assert.equal(after.value('mrtr_interactions_waiting', { ...U, mode: 'suspended' }), 0);
    assert.equal(delta(before, after, 'mrtr_interactions_ended_total', { ...U, reason: 'completed' }), 1);
    assert.equal(delta(before, after, 'mrtr_interaction_rounds_count'), 1);
    assert.equal(delta(before, after, 'mrtr_interaction_rounds_sum'), 1);
    assert.equal(delta(before, after, 'mrtr_interaction_rounds_bucket', { le: '0' }), 0);
    assert.equal(delta(before, after, 'mrtr_interaction_rounds_bucket', { le: '1' }), 1);
    assert.equal(delta(before, after, 'mrtr_upstream_request_duration_seconds_count', { ...U, method: 'tools/call' }), 1, 'one legacy call for both rounds');

    const [asked, answered] = [await lineFor(proxy, logged), await lineFor(proxy, logged + 1)];
    assert.deepEqual([asked['mode'], asked['round'], asked['target'], asked['status']], ['interactive', 0, 'ask-name', 200]);
    assert.deepEqual([answered['mode'], answered['round'], answered['target']], ['interactive', 1, 'ask-name']);
  });

  it('counts a tampered requestState as a rejection and an error', async () => {
    const before = await scrape(metricsUrl);
    const logged = accessLines(proxy).length;
    const first = inputRequired(await rpc(proxy.url, 'tools/call', { name: 'ask-name', arguments: {} }, { caps: ELICIT }));
    const tampered = `${first.requestState.slice(0, -4)}${first.requestState.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    const r = await rpc(proxy.url, 'tools/call', { name: 'ask-name', arguments: {}, inputResponses: {}, requestState: tampered }, { caps: ELICIT });
    assert.equal(r.body.error?.code, -32602);
    let after!: Scrape;
    await until(async () => {
      after = await scrape(metricsUrl);
      return delta(before, after, 'mrtr_requests_total', { ...U, method: 'tools/call', outcome: 'error' }) === 1;
    });
    assert.equal(delta(before, after, 'mrtr_state_rejections_total', { reason: 'unauthentic' }), 1);
    assert.equal(after.value('mrtr_interactions_waiting', { ...U, mode: 'suspended' }), 1, 'the real interaction still waits');
    const line = await lineFor(proxy, logged + 1);
    assert.equal(line['code'], -32602);
    assert.equal(line['mode'], 'interactive');
  });

  it('counts an interaction nobody resumed as expired, and its late retry as a rejection', async () => {
    const S = { upstream: 'short' };
    const before = await scrape(metricsUrl);
    const first = inputRequired(await rpc(shortUrl, 'tools/call', { name: 'ask-name', arguments: {} }, { caps: ELICIT }));
    let expired!: Scrape;
    // interactionTtl 1: the sweep ends it within about 2 s.
    await until(
      async () => {
        expired = await scrape(metricsUrl);
        return delta(before, expired, 'mrtr_interactions_ended_total', { ...S, reason: 'expired' }) === 1;
      },
      8000,
      'the interaction to expire',
    );
    assert.equal(expired.value('mrtr_interactions_waiting', { ...S, mode: 'suspended' }), 0);
    assert.equal(expired.value('mrtr_legacy_sessions', { ...S, state: 'exclusive' }), 0, 'the expired interaction gave its session up');
    assert.equal(expired.value('mrtr_interactions_waiting', { ...U, mode: 'suspended' }), 1, 'the other upstream keeps its own');
    const [key] = Object.keys(first.inputRequests);
    const late = await rpc(
      shortUrl,
      'tools/call',
      { name: 'ask-name', arguments: {}, inputResponses: { [key!]: { action: 'accept', content: { name: 'Bo' } } }, requestState: first.requestState },
      { caps: ELICIT },
    );
    assert.equal(late.body.error?.code, -32602);
    await until(async () => delta(before, await scrape(metricsUrl), 'mrtr_state_rejections_total', { reason: 'expired' }) === 1);
  });
});

describe('metrics on their own listener, access log off', () => {
  let proxy: ProxyProcess;
  let metricsUrl: string;
  before(async () => {
    proxy = await startProxy(['--metrics-port', '0', '--access-log', 'off', '--', process.execPath, FIXTURE]);
    metricsUrl = /metrics on (http:\/\/127\.0\.0\.1:\d+\/metrics)/.exec(proxy.stderr())?.[1] ?? '';
  });
  after(async () => {
    await proxy?.stop();
  });

  it('serves /metrics only on 127.0.0.1:--metrics-port and writes no access log', async () => {
    assert.match(metricsUrl, /^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    await rpc(proxy.url, 'tools/list', {});
    await until(async () => (await scrape(metricsUrl)).value('mrtr_requests_total', { ...U, method: 'tools/list', outcome: 'complete' }) === 1);
    const main = await fetch(proxy.url.replace(/\/mcp$/, '/metrics'));
    assert.equal(main.status, 404);
    assert.equal((await fetch(metricsUrl.replace(/\/metrics$/, '/other'))).status, 404);
    assert.equal(accessLines(proxy).length, 0);
  });
});
