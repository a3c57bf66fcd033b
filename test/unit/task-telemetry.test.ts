// What a task reports: the created and ended counters by kind and status, its audit line (shape
// only: the principal's tag as the task table gives it, the task's handle, never its id), and a span
// from its creation to its end under the tools/call that created it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { ProxyMetrics } from '../../src/telemetry/metrics.js';
import { type TaskAuditRecord, taskTelemetry } from '../../src/telemetry/task-telemetry.js';

async function value(metrics: ProxyMetrics, name: string, labels: Record<string, string>): Promise<number | undefined> {
  const metric = await metrics.registry.getSingleMetric(name)?.get();
  return metric?.values.find((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x))?.value;
}

describe('task telemetry', () => {
  it('counts tasks created and ended, and writes one audit line per ended task', async () => {
    const metrics = new ProxyMetrics({ defaultMetrics: false });
    const lines: TaskAuditRecord[] = [];
    let now = 1_000;
    const observer = taskTelemetry('up', { metrics, audit: (r) => lines.push(r), now: () => now });
    observer.onCreated({ task: 't1', kind: 'hosted', tool: 'slow', principal: 'tag-a' });
    observer.onCreated({ task: 't2', kind: 'translated', tool: 'slow', principal: 'tag-b' });
    now = 3_500;
    observer.onEnded({ task: 't1', kind: 'hosted', tool: 'slow', status: 'completed' });
    observer.onEnded({ task: 't2', kind: 'translated', tool: 'slow', status: 'failed', error: 'the proxy instance running the task stopped' });

    assert.equal(await value(metrics, 'mrtr_tasks_created_total', { upstream: 'up', kind: 'hosted' }), 1);
    assert.equal(await value(metrics, 'mrtr_tasks_created_total', { upstream: 'up', kind: 'translated' }), 1);
    assert.equal(await value(metrics, 'mrtr_tasks_ended_total', { upstream: 'up', kind: 'hosted', status: 'completed' }), 1);
    assert.equal(await value(metrics, 'mrtr_tasks_ended_total', { upstream: 'up', kind: 'translated', status: 'failed' }), 1);

    assert.equal(lines.length, 2);
    const [first, second] = lines;
    assert.deepEqual(first, {
      kind: 'task',
      ts: new Date(3_500).toISOString(),
      upstream: 'up',
      task: 't1',
      taskKind: 'hosted',
      tool: 'slow',
      principal: 'tag-a',
      status: 'completed',
      durationMs: 2_500,
    });
    assert.equal(second!.error, 'the proxy instance running the task stopped');
  });

  it('ignores the end of a task it never saw created (one counted, no line)', async () => {
    const metrics = new ProxyMetrics({ defaultMetrics: false });
    const lines: TaskAuditRecord[] = [];
    const observer = taskTelemetry('up', { metrics, audit: (r) => lines.push(r), now: () => 0 });
    observer.onEnded({ task: 'ghost', kind: 'hosted', tool: 'slow', status: 'cancelled' });
    assert.equal(await value(metrics, 'mrtr_tasks_ended_total', { upstream: 'up', kind: 'hosted', status: 'cancelled' }), 1);
    assert.deepEqual(lines, []);
  });

  it('records a span per task, a child of the creating call, with its kind and final status', () => {
    const exporter = new InMemorySpanExporter();
    const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    trace.setGlobalTracerProvider(provider);
    try {
      const call = provider.getTracer('test').startSpan('tools/call');
      const observer = taskTelemetry('up', { now: () => 0 });
      observer.onCreated({ task: 't1', kind: 'hosted', tool: 'slow', principal: 'tag-a', origin: call.spanContext() });
      observer.onCreated({ task: 't2', kind: 'translated', tool: 'slow', principal: 'tag-a' });
      assert.equal(exporter.getFinishedSpans().length, 0, 'open while the task runs');
      observer.onEnded({ task: 't1', kind: 'hosted', tool: 'slow', status: 'failed', error: 'the job crashed' });
      observer.onEnded({ task: 't2', kind: 'translated', tool: 'slow', status: 'completed' });
      const [failed, completed] = exporter.getFinishedSpans();
      assert.equal(failed!.name, 'task');
      assert.equal(failed!.parentSpanContext?.spanId, call.spanContext().spanId);
      assert.equal(failed!.spanContext().traceId, call.spanContext().traceId);
      assert.deepEqual(failed!.attributes, { 'mrtr.upstream': 'up', 'mrtr.task.kind': 'hosted', 'gen_ai.tool.name': 'slow', 'mrtr.task.status': 'failed' });
      assert.deepEqual(failed!.status, { code: SpanStatusCode.ERROR, message: 'the job crashed' });
      assert.equal(completed!.parentSpanContext, undefined, 'no creating span: a root');
      assert.equal(completed!.attributes['mrtr.task.status'], 'completed');
      assert.equal(completed!.status.code, SpanStatusCode.UNSET);
    } finally {
      trace.disable();
    }
  });
});
