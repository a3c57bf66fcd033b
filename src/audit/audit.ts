// The audit as the composition root sees it: one writer for the file, one recorder per upstream.
import type { AuditConfig } from '../config/types.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../telemetry/logger.js';
import { AuditRecorder } from './recorder.js';
import { AuditWriter } from './writer.js';

export interface Audit {
  /** The observer to give the bridge of `upstream`. */
  recorderFor(upstream: string): AuditRecorder;
  /** Queues a record of another kind (a shadow difference); returns at once. */
  write(record: object): void;
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
    content: config.content,
    close: () => writer.close(),
  };
}
