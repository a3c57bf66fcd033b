// What one upstream's tasks report (bridge/tasks/task-table.ts TaskObserver): counters of tasks
// created and ended, a span per task from its creation to its end (a child of the tools/call that
// created it, so a trace shows the task under the call), one audit line per ended task, and a
// counter of what is not kept of finished tasks.
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { ProxyMetrics } from './metrics.js';
import type { TaskObserver } from './ports.js';

/** The audit's task line: shape only (no arguments, answers or results). */
export interface TaskAuditRecord {
  kind: 'task';
  ts: string;
  upstream: string;
  /** The task's handle (the same in the proxy's log lines), never its id. */
  task: string;
  taskKind: 'hosted' | 'translated';
  tool: string;
  principal: string;
  status: string;
  durationMs: number;
  error?: string;
}

export interface TaskTelemetryParts {
  metrics?: ProxyMetrics | undefined;
  /** Writes an audit line (--audit); absent: no audit. */
  audit?: ((record: TaskAuditRecord) => void) | undefined;
  now(): number;
}

export function taskTelemetry(upstream: string, parts: TaskTelemetryParts): TaskObserver {
  const running = new Map<string, { span: Span; startedAt: number; principal: string }>();
  return {
    onCreated({ task, kind, tool, principal, origin }) {
      parts.metrics?.tasksCreated.inc({ upstream, kind });
      const attributes = { 'mrtr.upstream': upstream, 'mrtr.task.kind': kind, 'gen_ai.tool.name': tool };
      const parent = origin && trace.isSpanContextValid(origin) ? trace.setSpanContext(ROOT_CONTEXT, origin) : undefined;
      const span = trace.getTracer('mrtr-proxy').startSpan('task', { kind: SpanKind.INTERNAL, attributes }, parent);
      running.set(task, { span, startedAt: parts.now(), principal });
    },
    onDropped({ kind, reason }) {
      parts.metrics?.tasksDropped.inc({ upstream, kind, reason });
    },
    onEnded({ task, kind, tool, status, error }) {
      parts.metrics?.tasksEnded.inc({ upstream, kind, status });
      const started = running.get(task);
      running.delete(task);
      if (started === undefined) return;
      started.span.setAttribute('mrtr.task.status', status);
      if (status === 'failed') started.span.setStatus({ code: SpanStatusCode.ERROR, ...(error === undefined ? {} : { message: error }) });
      started.span.end();
      parts.audit?.({
        kind: 'task',
        ts: new Date(parts.now()).toISOString(),
        upstream,
        task,
        taskKind: kind,
        tool,
        principal: started.principal,
        status,
        durationMs: parts.now() - started.startedAt,
        ...(error === undefined ? {} : { error }),
      });
    },
  };
}
