// The audit as the composition root sees it: one writer for the file, one recorder per upstream.
import type { AuditConfig } from '../config/types.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../telemetry/logger.js';
import type { TaskAuditRecord } from '../telemetry/task-telemetry.js';
import { AuditRecorder } from './recorder.js';
import type { ResourceName } from '../protocol/resource-names.js';
import { AuditWriter } from './writer.js';

export interface Audit {
  /** The observer to give the bridge of `upstream`; `resourceName` names its reads (upstream/resource-catalog.ts). */
  recorderFor(upstream: string, resourceName?: (uri: string) => Promise<ResourceName>): AuditRecorder;
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
  const recorders: AuditRecorder[] = [];
  return {
    recorderFor: (upstream, resourceName) => {
      const recorder = new AuditRecorder({
        upstream,
        clock,
        content: config.content,
        questions: config.questions,
        ...(resourceName ? { resourceName } : {}),
        sink: (r) => writer.write(r),
      });
      recorders.push(recorder);
      return recorder;
    },
    write: (record) => writer.write(record),
    writeTask: (record) => writer.write(taskLine(record, config.content)),
    content: config.content,
    close: async () => {
      // A read's record waits for its name; then the file is flushed.
      await Promise.all(recorders.map((r) => r.settled()));
      await writer.close();
    },
  };
}

/** A task's audit line as the audit keeps it: without the error's message unless `content`. */
export function taskLine(record: TaskAuditRecord, content: boolean): TaskAuditRecord {
  if (content || record.error === undefined) return record;
  const { error: _message, ...kept } = record;
  return kept;
}
