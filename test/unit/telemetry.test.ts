// The telemetry pieces on plain data: bounded labels, the OTEL_* decision, trace context on the
// legacy wire, the head of a request body, the access-log line, and the bridge's metrics on a
// registry of the test's own.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { front, setup, type Asked } from '../support/bridge-setup.js';
import { tick } from '../support/fake-session.js';
import { parseExposition, Scrape } from '../support/metrics.js';
import { accessLogFields, createPrincipalHasher } from '../../src/telemetry/access-log.js';
import { FrontRequest, readHead } from '../../src/telemetry/front-request.js';
import { inputLabel, methodLabel, outcomeOf } from '../../src/telemetry/labels.js';
import { ProxyMetrics } from '../../src/telemetry/metrics.js';
import { tracingPlan } from '../../src/telemetry/otel-env.js';
import type { Logger } from '../../src/telemetry/logger.js';
import { upstreamTelemetry } from '../../src/telemetry/upstream-telemetry.js';
import { traceHeaders, withTraceContext } from '../../src/upstream/trace-context.js';

const TP = '00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01';

describe('labels', () => {
  it('keeps known methods and turns everything else into other', () => {
    assert.equal(methodLabel('tools/call'), 'tools/call');
    assert.equal(methodLabel('notifications/initialized'), 'notifications/initialized');
    assert.equal(methodLabel('response'), 'response');
    assert.equal(methodLabel('vendor/anything'), 'other');
    assert.equal(methodLabel('tools/call book_table'), 'other');
    assert.equal(methodLabel(42), 'other');
  });

  it('names the input kinds and the outcome', () => {
    assert.equal(inputLabel('elicitation/create'), 'elicitation');
    assert.equal(inputLabel('sampling/createMessage'), 'sampling');
    assert.equal(inputLabel('roots/list'), 'roots');
    assert.equal(inputLabel('ping'), undefined);
    assert.equal(outcomeOf(200, undefined, false), 'complete');
    assert.equal(outcomeOf(200, undefined, true), 'input_required');
    assert.equal(outcomeOf(200, -32602, false), 'error');
    assert.equal(outcomeOf(503, undefined, false), 'error');
  });
});

describe('tracingPlan (OTEL_* environment)', () => {
  it('is off unless an exporter or an endpoint is configured', () => {
    assert.deepEqual(tracingPlan({}), { kind: 'off' });
    assert.deepEqual(tracingPlan({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x' }), { kind: 'off' });
    assert.deepEqual(tracingPlan({ OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' }), { kind: 'off' });
  });

  it('exports OTLP over HTTP, protobuf by default', () => {
    assert.deepEqual(tracingPlan({ OTEL_TRACES_EXPORTER: 'otlp' }), { kind: 'otlp', protocol: 'http/protobuf' });
    assert.deepEqual(tracingPlan({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x' }), { kind: 'otlp', protocol: 'http/protobuf' });
    assert.deepEqual(tracingPlan({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://x', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }), {
      kind: 'otlp',
      protocol: 'http/json',
    });
    assert.deepEqual(tracingPlan({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json' }), {
      kind: 'otlp',
      protocol: 'http/json',
    });
  });

  it('refuses what it cannot honour, naming the variable', () => {
    assert.throws(() => tracingPlan({ OTEL_TRACES_EXPORTER: 'console' }), /OTEL_TRACES_EXPORTER: 'console' is not supported/);
    assert.throws(
      () => tracingPlan({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }),
      /OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' is not supported/,
    );
  });
});

describe('trace context on the legacy wire', () => {
  it("replaces the client's _meta trace context with the proxy's, keeping other keys", () => {
    assert.deepEqual(withTraceContext({ a: 1, _meta: { traceparent: 'old', tracestate: 'x=1', v: 2 } }, { traceparent: TP }), {
      a: 1,
      _meta: { traceparent: TP, v: 2 },
    });
    const untouched = { _meta: { traceparent: 'client' } };
    assert.equal(withTraceContext(untouched, {}), untouched, 'tracing off: the params go as they are');
  });

  it('copies a single request’s _meta trace context into headers', () => {
    assert.deepEqual(traceHeaders({ jsonrpc: '2.0', id: 1, method: 'x', params: { _meta: { traceparent: TP, tracestate: 'a=b', other: 1 } } }), {
      traceparent: TP,
      tracestate: 'a=b',
    });
    assert.deepEqual(traceHeaders([{ params: { _meta: { traceparent: TP } } }]), {});
    assert.deepEqual(traceHeaders({ params: { _meta: { traceparent: 'x'.repeat(600) } } }), {});
  });
});

describe('readHead', () => {
  const body = (o: unknown) => Buffer.from(JSON.stringify(o));
  it('reads the method and the target of interactive calls, bounded', () => {
    assert.deepEqual(readHead(body({ method: 'tools/call', params: { name: 'book', _meta: { traceparent: TP } } }), 'POST'), {
      method: 'tools/call',
      target: 'book',
      meta: { traceparent: TP },
    });
    // A read's URI is held apart, to be named by its template: it is never the target as it is.
    assert.deepEqual(readHead(body({ method: 'resources/read', params: { uri: 'file:///a' } }), 'POST'), { method: 'resources/read', uri: 'file:///a' });
    assert.equal(readHead(body({ method: 'tools/call', params: { name: 'n'.repeat(1000) } }), 'POST').target?.length, 256);
  });

  it('names what has no method', () => {
    assert.equal(readHead(body([{ method: 'ping' }]), 'POST').method, 'batch');
    assert.equal(readHead(body({ id: 1, result: {} }), 'POST').method, 'response');
    assert.equal(readHead(Buffer.from('{'), 'POST').method, 'unreadable');
    assert.equal(readHead(undefined, 'GET').method, 'stream');
    assert.equal(readHead(undefined, 'DELETE').method, 'delete');
  });
});

describe('access log line', () => {
  it('has every field, and the principal only as a keyed hash', () => {
    const hash = createPrincipalHasher(new Uint8Array(32).fill(1));
    const request = new FrontRequest('u1', 'anonymous', { method: 'tools/call', target: 'book' }, {});
    request.mode = 'interactive';
    request.round = 2;
    request.error(-32602);
    const fields = accessLogFields(request, 200, 0.0123456, hash);
    assert.deepEqual(fields, {
      upstream: 'u1',
      method: 'tools/call',
      target: 'book',
      status: 200,
      code: -32602,
      durationMs: 12.346,
      round: 2,
      mode: 'interactive',
      principal: hash('anonymous'),
    });
    assert.match(fields.principal, /^[0-9a-f]{16}$/);
    assert.notEqual(createPrincipalHasher(new Uint8Array(32).fill(2))('anonymous'), fields.principal, 'another key, another hash');
  });

  it('names a read by its declared template, or not at all: never by the URI read', () => {
    const hash = createPrincipalHasher(new Uint8Array(32).fill(1));
    const head = () => readHead(Buffer.from(JSON.stringify({ method: 'resources/read', params: { uri: 'notes://note/planted-id' } })), 'POST');
    const named = new FrontRequest('u1', 'anonymous', head(), {});
    named.named('notes://note/{id}');
    const unnamed = new FrontRequest('u1', 'anonymous', head(), {});
    unnamed.named(undefined);
    assert.equal(accessLogFields(named, 200, 0.001, hash).target, 'notes://note/{id}');
    assert.equal(accessLogFields(unnamed, 200, 0.001, hash).target, undefined);
    for (const r of [named, unnamed]) {
      assert.doesNotMatch(JSON.stringify(accessLogFields(r, 200, 0.001, hash)), /planted-id/);
      assert.doesNotMatch(JSON.stringify(r.head), /planted-id/, 'the URI is let go once named');
    }
  });
});

describe('bridge metrics on a test registry', () => {
  async function scrapeOf(metrics: ProxyMetrics): Promise<Scrape> {
    return new Scrape(parseExposition((await metrics.expose()).body));
  }

  it('counts inputs, state rejections, ended interactions and their rounds', async () => {
    const metrics = new ProxyMetrics({ defaultMetrics: false });
    const { bridge, last, clock } = setup({ telemetry: upstreamTelemetry('u1', metrics), ttlMs: 1000 });
    const stop = metrics.watch('u1', {
      interactions: () => ({ suspended: bridge.suspendedCount, running: bridge.runningCount }),
      sessions: () => ({ idle: 0, exclusive: 0, shared: 0, connecting: 0 }),
    });
    const first = bridge.call(front());
    await tick();
    last().ask('elicitation/create', { message: 'a', requestedSchema: { type: 'object', properties: {} } });
    // Ended by the expiry below: the legacy server's roots/list gets an error.
    last()
      .ask('roots/list')
      .answer.catch(() => {});
    const asked = (await first) as unknown as Asked;
    let m = await scrapeOf(metrics);
    assert.equal(m.value('mrtr_input_required_total', { upstream: 'u1', method: 'tools/call', input: 'elicitation' }), 1);
    assert.equal(m.value('mrtr_input_required_total', { upstream: 'u1', method: 'tools/call', input: 'roots' }), 1);
    assert.equal(m.value('mrtr_interactions_waiting', { upstream: 'u1', mode: 'suspended' }), 1);

    await assert.rejects(bridge.call(front({ requestState: `${asked.requestState}x` })));
    clock.advance(1001);
    bridge.expire();
    await assert.rejects(bridge.call(front({ requestState: asked.requestState, inputResponses: {} })));
    m = await scrapeOf(metrics);
    assert.equal(m.value('mrtr_interactions_waiting', { upstream: 'u1', mode: 'suspended' }), 0);
    assert.equal(m.value('mrtr_interactions_ended_total', { upstream: 'u1', reason: 'expired' }), 1);
    assert.equal(m.value('mrtr_interaction_rounds_sum'), 1);
    assert.equal(m.value('mrtr_state_rejections_total', { reason: 'expired' }), 1);
    assert.equal(
      m.samples.filter((s) => s.name === 'mrtr_state_rejections_total').reduce((n, s) => n + s.value, 0),
      2,
    );
    stop();
    m = await scrapeOf(metrics);
    assert.equal(m.has('mrtr_interactions_waiting'), false, 'an unwatched upstream leaves the gauge');
  });

  it('counts dropped notifications by method and reason, and warns once per reason', async () => {
    const metrics = new ProxyMetrics({ defaultMetrics: false });
    const warned: string[] = [];
    const log = { warn: (message: string) => void warned.push(message) } as unknown as Logger;
    const t = upstreamTelemetry('u1', metrics, log);
    t.notificationDropped('notifications/message', 'outside_call');
    t.notificationDropped('notifications/message', 'outside_call');
    t.notificationDropped('notifications/progress', 'send_failed', 'stream closed');
    const m = await scrapeOf(metrics);
    assert.equal(m.value('mrtr_notifications_dropped_total', { upstream: 'u1', method: 'notifications/message', reason: 'outside_call' }), 2);
    assert.equal(m.value('mrtr_notifications_dropped_total', { upstream: 'u1', method: 'notifications/progress', reason: 'send_failed' }), 1);
    assert.equal(warned.length, 2);
    assert.match(warned[0]!, /belongs to no call/);
    assert.match(warned[1]!, /refused it/);
  });
});
