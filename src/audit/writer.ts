// The audit file: JSON lines appended by one background loop, so a call never waits for the disk.
// `write` only queues; the loop appends what is queued in one write, and when the file would pass
// `maxBytes` it is renamed to FILE.1 (replacing the previous one) and a new FILE is started.
// A file it creates is readable by its owner only; an existing file keeps the mode the operator
// gave it (a log shipper's group, say), with a warning when others may read it.
import { rename, open, type FileHandle } from 'node:fs/promises';
import type { Logger } from '../telemetry/logger.js';

/** A new audit file (the first, or one started by a rotation): owner read and write only. */
export const AUDIT_FILE_MODE = 0o600;

export interface AuditWriterOptions {
  file: string;
  maxBytes: number;
  log: Logger;
  /** Lines queued beyond this are dropped (and counted) rather than growing memory without bound. */
  maxQueued?: number;
}

export class AuditWriter {
  private queue: string[] = [];
  private handle: FileHandle | undefined;
  private size = 0;
  private running: Promise<void> | undefined;
  private dropped = 0;
  private closed = false;
  private warnedMode = false;

  constructor(private readonly opts: AuditWriterOptions) {}

  /** Queues one record; returns at once. */
  write(record: object): void {
    if (this.closed) return;
    if (this.queue.length >= (this.opts.maxQueued ?? 10_000)) {
      this.dropped++;
      return;
    }
    this.queue.push(`${JSON.stringify(record)}\n`);
    this.running ??= this.drain();
  }

  /** Resolves once everything queued so far is on disk. */
  async flush(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Flushes and closes the file; later writes are ignored. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
    await this.handle?.close();
    this.handle = undefined;
  }

  private async drain(): Promise<void> {
    // Let the caller's turn finish first: the hot path never shares a tick with file I/O.
    await new Promise((r) => setImmediate(r));
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.join('');
        this.queue = [];
        await this.append(batch);
      }
      if (this.dropped > 0) {
        this.opts.log.warn('audit lines dropped: the disk did not keep up', { dropped: this.dropped, file: this.opts.file });
        this.dropped = 0;
      }
    } catch (err) {
      this.opts.log.error('cannot write the audit file', { file: this.opts.file, error: (err as Error).message });
      this.queue = [];
    } finally {
      this.running = undefined;
    }
    if (this.queue.length > 0) this.running ??= this.drain();
  }

  private async append(text: string): Promise<void> {
    const bytes = Buffer.byteLength(text);
    if (!this.handle) await this.openFile();
    if (this.size > 0 && this.size + bytes > this.opts.maxBytes) await this.rotate();
    await this.handle!.write(text);
    this.size += bytes;
  }

  private async openFile(): Promise<void> {
    this.handle = await open(this.opts.file, 'a', AUDIT_FILE_MODE);
    const { size, mode } = await this.handle.stat();
    this.size = size;
    if ((mode & 0o077) !== 0 && !this.warnedMode) {
      this.warnedMode = true;
      this.opts.log.warn('the audit file may be read by others than its owner; the proxy leaves an existing file as it is (chmod 600 to close it)', {
        file: this.opts.file,
        mode: (mode & 0o777).toString(8).padStart(4, '0'),
      });
    }
  }

  private async rotate(): Promise<void> {
    await this.handle?.close();
    this.handle = undefined;
    await rename(this.opts.file, `${this.opts.file}.1`);
    await this.openFile();
    this.opts.log.info('audit file rotated', { file: this.opts.file, previous: `${this.opts.file}.1` });
  }
}
