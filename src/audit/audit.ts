// The audit as the composition root sees it: one writer for the file, one recorder per upstream.
import type { AuditConfig } from '../config/types.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../telemetry/logger.js';
import type { TaskAuditRecord } from '../telemetry/task-telemetry.js';
import { AuditRecorder } from './recorder.js';
import { AuditWriter } from './writer.js';

export interface Audit {
  /** The observer to give the bridge of `upstream`. */
  recorderFor(upstream: string): AuditRecorder;
  /** Queues a record of another kind (a shadow difference); returns at once. */
  write(record: object): void;
  /** Queues a task's line; its error (a legacy server's message may echo the arguments) only with --audit-content. */
  writeTask(record: TaskAuditRecord): void;
  /** Whether records keep what was asked and answered (--audit-content). */
  readonly content: boolean;
  /** Flushes what is queued and closes the file. */
  close(): Promise<void>;
}

export function createAudit(config: AuditConfig, log: Logger, clock: Clock): Audit {
  const writer = new AuditWriter({ file: config.file, maxBytes: config.maxBytes, log });
  return {
    recorderFor: (upstream) => new AuditRecorder({ upstream, clock, content: config.content, questions: config.questions, sink: (r) => writer.write(r) }),
    write: (record) => writer.write(record),
    writeTask: (record) => writer.write(taskLine(record, config.content)),
    content: config.content,
    close: () => writer.close(),
  };
}

/** A task's audit line as the audit keeps it: without the error's message unless `content`. */
export function taskLine(record: TaskAuditRecord, content: boolean): TaskAuditRecord {
  if (content || record.error === undefined) return record;
  const { error: _message, ...kept } = record;
  return kept;
}
