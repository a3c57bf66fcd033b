// OpenTelemetry traces of a running proxy, exported over OTLP/HTTP (JSON) to a receiver in this
// process: the span of each front request continues the client's W3C trace, each legacy request is
// a child span whose context reaches the legacy server (headers over HTTP, `_meta` always), and
// the rounds of one interaction are linked.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { textOf } from '../support/client.js';
import { startOtlpReceiver, SPAN_KIND, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver.js';
import { FIXTURE, startHttpFixture, startProxy, type ProxyProcess, type Running } from '../support/processes.js';
import { inputRequired, rpc } from '../support/rpc.js';
import { until } from '../support/wait.js';

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const traceparent = (traceId: string, spanId: string) => `00-${traceId}-${spanId}-01`;
const parse = (tp: unknown) => /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(String(tp)) ?? assert.fail(`not a traceparent: ${String(tp)}`);

/**
 * The spans of a trace once its front span and, with `legacy`, its legacy request's span arrived.
 * (A first tools/call also has a tools/list span: the proxy lists the tools to check Mcp-Param-*.)
 */
async function spansOf(receiver: OtlpReceiver, traceId: string, legacy?: string): Promise<{ front: ReceivedSpan; legacy: ReceivedSpan; all: ReceivedSpan[] }> {
  const of = () => receiver.spans.filter((s) => s.traceId === traceId);
  const find = () => ({ front: of().find((s) => s.kind === SPAN_KIND.SERVER), legacy: of().find((s) => s.kind === SPAN_KIND.CLIENT && s.name === legacy) });
  await until(() => find().front !== undefined && (legacy === undefined || find().legacy !== undefined), 8000, `the spans of trace ${traceId}`);
  return { ...(find() as { front: ReceivedSpan; legacy: ReceivedSpan }), all: of() };
}

function otelEnv(receiver: OtlpReceiver): NodeJS.ProcessEnv {
  return {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '50',
    OTEL_SERVICE_NAME: 'proxy-under-test',
  };
}

describe('traces (HTTP legacy server)', () => {
  let receiver: OtlpReceiver;
  let upstream: Running & { url: string };
  let proxy: ProxyProcess;
  before(async () => {
    receiver = await startOtlpReceiver();
    upstream = await startHttpFixture();
    proxy = await startProxy(['--upstream', upstream.url], otelEnv(receiver));
  });
  after(async () => {
    await proxy?.stop();
    await upstream?.stop();
    await receiver?.close();
  });

  it("continues the client's traceparent header and sends the legacy request's context upstream", async () => {
    const [traceId, clientSpan] = [hex(16), hex(8)];
    const r = await rpc(proxy.url, 'tools/call', { name: 'headers', arguments: {} }, { headers: { traceparent: traceparent(traceId, clientSpan) } });
    const seen = JSON.parse(textOf(r.body.result)) as Record<string, string>;
    const [, upTrace, upParent] = parse(seen['traceparent']);
    assert.equal(upTrace, traceId, 'the legacy server continues the same trace');

    const { front, legacy } = await spansOf(receiver, traceId, 'tools/call');
    assert.equal(front.parentSpanId, clientSpan, "the front span's parent is the client's span");
    assert.equal(front.name, 'tools/call');
    assert.equal(front.attributes['mcp.method.name'], 'tools/call');
    assert.equal(front.attributes['mrtr.target'], 'headers');
    assert.equal(front.service, 'proxy-under-test');
    assert.equal(legacy.parentSpanId, front.spanId, 'the legacy request is a child of the front request');
    assert.equal(legacy.name, 'tools/call');
    assert.equal(upParent, legacy.spanId, "the legacy server's parent is the legacy request's span");
  });

  it('puts the same context in _meta, continuing a traceparent the client sent there', async () => {
    const [traceId, clientSpan] = [hex(16), hex(8)];
    const r = await rpc(proxy.url, 'tools/call', { name: 'meta', arguments: {} }, { meta: { traceparent: traceparent(traceId, clientSpan) } });
    const meta = JSON.parse(textOf(r.body.result)) as Record<string, unknown>;
    const [, metaTrace, metaParent] = parse(meta['traceparent']);
    assert.equal(metaTrace, traceId);
    const { front, legacy } = await spansOf(receiver, traceId, 'tools/call');
    assert.equal(front.parentSpanId, clientSpan);
    assert.equal(metaParent, legacy.spanId);
  });

  it('links the rounds of one interaction; the legacy call is a child of the first round', async () => {
    const [firstTrace, retryTrace] = [hex(16), hex(16)];
    const ask = inputRequired(
      await rpc(
        proxy.url,
        'tools/call',
        { name: 'ask-name', arguments: {} },
        { caps: { elicitation: {} }, headers: { traceparent: traceparent(firstTrace, hex(8)) } },
      ),
    );
    const [key] = Object.keys(ask.inputRequests);
    const done = await rpc(
      proxy.url,
      'tools/call',
      { name: 'ask-name', arguments: {}, inputResponses: { [key!]: { action: 'accept', content: { name: 'Ann' } } }, requestState: ask.requestState },
      { caps: { elicitation: {} }, headers: { traceparent: traceparent(retryTrace, hex(8)) } },
    );
    assert.equal(textOf(done.body.result), 'Hello, Ann!');

    const { front: round0, legacy: call } = await spansOf(receiver, firstTrace, 'tools/call');
    assert.equal(call.parentSpanId, round0.spanId);
    assert.equal(round0.attributes['mrtr.round'], undefined);
    const { front: round1, all } = await spansOf(receiver, retryTrace);
    assert.equal(all.length, 1, 'the retry sends no legacy request of its own');
    assert.equal(round1.attributes['mrtr.round'], 1);
    assert.deepEqual(
      round1.links.map((l) => [l.traceId, l.spanId]),
      [[firstTrace, round0.spanId]],
      'the retry links to the first round',
    );
  });

  it('marks a refused retry as an error span', async () => {
    const traceId = hex(16);
    const r = await rpc(
      proxy.url,
      'tools/call',
      { name: 'ask-name', arguments: {}, inputResponses: {}, requestState: 'not-a-state' },
      { caps: { elicitation: {} }, headers: { traceparent: traceparent(traceId, hex(8)) } },
    );
    assert.equal(r.body.error?.code, -32602);
    const { front } = await spansOf(receiver, traceId);
    assert.equal(front.status.code, 2, 'STATUS_CODE_ERROR');
    assert.equal(front.attributes['rpc.jsonrpc.error_code'], -32602);
  });
});

describe('traces (stdio legacy server)', () => {
  let receiver: OtlpReceiver;
  let proxy: ProxyProcess;
  before(async () => {
    receiver = await startOtlpReceiver();
    proxy = await startProxy(['--', process.execPath, FIXTURE], otelEnv(receiver));
  });
  after(async () => {
    await proxy?.stop();
    await receiver?.close();
  });

  it("sends the legacy request's context in _meta", async () => {
    const traceId = hex(16);
    const r = await rpc(proxy.url, 'tools/call', { name: 'meta', arguments: {} }, { headers: { traceparent: traceparent(traceId, hex(8)) } });
    const [, metaTrace, metaParent] = parse((JSON.parse(textOf(r.body.result)) as Record<string, unknown>)['traceparent']);
    assert.equal(metaTrace, traceId);
    const { legacy } = await spansOf(receiver, traceId, 'tools/call');
    assert.equal(metaParent, legacy.spanId);
  });
});

describe('traces off', () => {
  let proxy: ProxyProcess;
  before(async () => {
    proxy = await startProxy(['--', process.execPath, FIXTURE]);
  });
  after(async () => {
    await proxy?.stop();
  });

  it("passes the client's _meta traceparent upstream as it is", async () => {
    const tp = traceparent(hex(16), hex(8));
    const r = await rpc(proxy.url, 'tools/call', { name: 'meta', arguments: {} }, { meta: { traceparent: tp } });
    assert.equal((JSON.parse(textOf(r.body.result)) as Record<string, unknown>)['traceparent'], tp);
  });
});
