// A stdio upstream: one child per legacy session, or the one child of a modern server, started by
// child-process.ts (minimal environment, own process group, watched). Messages are the v1 SDK's
// newline-delimited JSON. The child's stderr is relayed into our structured log, and its last
// lines are kept so that a child that exits says why (exitReport), not only "Connection closed"
// (one that does not answer in time is stopped, so it says why too). What a child writes before
// its first message (a start-up banner, once per legacy session) is relayed at debug; once it
// speaks MCP, its stderr is at info. Both pipes are read in bounded pieces: a stderr line is cut
// (stderr-lines.ts), a stdout line past the size of a message ends the session.
import type { ChildProcess } from 'node:child_process';
import { serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../../telemetry/logger.js';
import { type ChildTarget, signalChild } from '../child/child-process.js';
import { parseMessage } from './jsonrpc-message.js';
import { LineReader, MAX_LINE_BYTES } from './line-reader.js';
import { type StderrLine, StderrLines } from './stderr-lines.js';
import { StderrTail } from './stderr-tail.js';
import { KeptProcFiles, processTreeRunning } from '../child/process-running.js';
import type { UpstreamResources } from '../resources.js';

/** stdin EOF, then SIGTERM after this, then SIGKILL after as long again (as the v1 SDK does). */
const CLOSE_STEP_MS = 2000;
const STDERR_TAIL_LINES = 5;
/** How long the end of a child waits for the rest of its stderr. */
const STDERR_GRACE_MS = 500;

export type StdioTarget = ChildTarget;

/** How long the gather's kept /proc files stay open after their last read. */
const KEPT_IDLE_MS = 1000;

export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | undefined;
  private readonly lines = new LineReader();
  private readonly tail = new StderrTail(STDERR_TAIL_LINES);
  private exit: string | undefined;
  /** The child ended by itself (an exit code, no signal), having started. */
  private exitedByItself = false;
  /** Why the proxy stopped the child, when it did: quoted before how it exited. */
  private stopped: string | undefined;
  private spoken = false;
  /**
   * The child's /proc files the gather reads, kept open while rounds are gathered: closed once no
   * pass has read them for KEPT_IDLE_MS (an idle session holds no descriptors for them), and when
   * the child ends.
   */
  private readonly procFiles = new KeptProcFiles();
  private lastProcRead = 0;
  private procIdle: NodeJS.Timeout | undefined;

  /** `resources`: the proxy instance's children and the ones it prestarted. */
  constructor(
    private readonly target: StdioTarget,
    private readonly log: Logger,
    private readonly resources: Pick<UpstreamResources, 'children' | 'prestarted'>,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /**
   * True while the child (or a process it started) runs rather than waits, or while part of a line
   * it wrote is still to come (a child blocked on a full pipe waits, with more to write); undefined
   * when unknown.
   */
  running(threads: 'all' | 'main'): boolean | undefined {
    const pid = this.child?.pid;
    if (pid === undefined) return undefined;
    this.lastProcRead = Date.now();
    this.procIdle ??= setTimeout(() => this.closeIdleProcFiles(), KEPT_IDLE_MS).unref();
    return this.lines.holding || processTreeRunning(pid, threads, undefined, this.procFiles);
  }

  private closeIdleProcFiles(): void {
    const idleFor = Date.now() - this.lastProcRead;
    this.procIdle = idleFor >= KEPT_IDLE_MS ? undefined : setTimeout(() => this.closeIdleProcFiles(), KEPT_IDLE_MS - idleFor).unref();
    if (this.procIdle === undefined) this.procFiles.close();
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const early = this.resources.prestarted.take(this.target);
      const child = early?.child ?? this.resources.children.spawn(this.target, ['pipe', 'pipe', 'pipe']);
      this.child = child;
      child.once('error', (err) => {
        reject(err);
        this.onerror?.(err);
      });
      // A prestarted child may have started (or failed to) before this transport took it.
      if (early) early.spawned.then(resolve, reject);
      else child.once('spawn', () => resolve());
      const stderr = early?.stderr ?? child.stderr!;
      const stderrLines = new StderrLines();
      stderr.on('data', (chunk: Buffer) => {
        for (const line of stderrLines.push(chunk)) this.relayStderr(line);
      });
      const stderrRead = new Promise<void>((resolve) => {
        const ended = () => {
          const last = stderrLines.end();
          if (last) this.relayStderr(last);
          resolve();
        };
        stderr.once('end', ended);
        stderr.once('close', ended);
      });
      child.stdin!.on('error', (err) => this.onerror?.(err));
      child.stdout!.on('data', (chunk: Buffer) => {
        // Once the stream could not be framed, the rest of what the child writes is dropped.
        if (this.stopped !== undefined) return;
        let lines: string[];
        try {
          lines = this.lines.push(chunk);
        } catch (err) {
          // A line past the size a message may have: the pipe can no longer be trusted.
          this.stopped = `was stopped: it wrote a line of more than ${MAX_LINE_BYTES} bytes on stdout (the most one message may have)`;
          this.log.warn('upstream server stdout line too long: closing its session', { limitBytes: MAX_LINE_BYTES, pid: child.pid });
          this.onerror?.(err as Error);
          void this.close();
          return;
        }
        for (const line of lines) this.deliver(line);
      });
      // The end is reported once the child's stderr has been read to its end, so the tail is
      // complete (a prestarted child's may still be in our buffer when it has exited), or after a
      // grace period, for a stderr that a process the child started holds open.
      const closed = (code: number | null, signal: NodeJS.Signals | null) => {
        let grace: NodeJS.Timeout | undefined;
        const held = new Promise<void>((resolve) => (grace = setTimeout(resolve, STDERR_GRACE_MS)));
        void Promise.race([stderrRead, held]).then(() => {
          clearTimeout(grace);
          const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
          this.exit = this.stopped === undefined ? how : `${this.stopped}, and ${how}`;
          // A spawn that failed (ENOENT) reports a negative code.
          this.exitedByItself = this.stopped === undefined && signal === null && code !== null && code >= 0;
          this.child = undefined;
          clearTimeout(this.procIdle);
          this.procIdle = undefined;
          this.procFiles.close();
          this.onclose?.();
        });
      };
      const gone = early?.closed;
      // A prestarted child that already ended will not say so again.
      if (gone) closed(gone.code, gone.signal);
      else child.once('close', closed);
    });
  }

  /** How the child ended and its last stderr lines; undefined while it runs. */
  exitReport(): string | undefined {
    if (this.exit === undefined) return undefined;
    const lines = this.tail.quote();
    return lines.length === 0 ? this.exit : `${this.exit}; its last stderr lines: ${lines.join(' | ')}`;
  }

  /** Whether the child exited by itself before it spoke MCP: what a missing variable looks like. */
  exitedBeforeSpeaking(): boolean {
    return this.exitedByItself && !this.spoken;
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin) return reject(new Error('Not connected'));
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    const child = this.child;
    // A child that never ran (spawn failed) or already exited has nothing left to stop; waiting
    // for a 'close' it already emitted would leave this promise the only thing the process waits on.
    if (!child || !runs(child)) return;
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    const step = async () => {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([closed, new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_STEP_MS)))]);
      clearTimeout(timer);
    };
    child.stdin!.end();
    await step();
    if (runs(child) && signalChild(child, 'SIGTERM')) await step();
    if (runs(child)) signalChild(child, 'SIGKILL');
    this.lines.clear();
  }

  /** A line the child wrote to stderr, into the log (with what its cut dropped) and the tail. */
  private relayStderr({ text, droppedBytes }: StderrLine): void {
    const fields = droppedBytes > 0 ? { line: text, truncatedBytes: droppedBytes } : { line: text };
    if (this.spoken) this.log.info('upstream server stderr', fields);
    else this.log.debug('upstream server stderr', fields);
    this.tail.push(text);
  }

  /** One line, one message; a line that is not one is reported and skipped, as the SDK's reader does. */
  private deliver(line: string): void {
    const message = parseMessage(line, this.onerror);
    if (message === undefined) return;
    this.spoken = true;
    this.onmessage?.(message);
  }
}

/** Started and not yet exited: a spawn that failed has a pid of undefined and an exit code. */
function runs(child: ChildProcess): boolean {
  return child.pid !== undefined && child.exitCode === null && child.signalCode === null;
}

export function createStdioTransport(target: StdioTarget, log: Logger, resources: UpstreamResources): StdioTransport {
  return new StdioTransport(target, log, resources);
}
