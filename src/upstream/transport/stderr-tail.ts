// What a legacy child last wrote to stderr, kept to say why it exited: its last lines, without
// blank lines and stack frames (`    at ...`), and the last line that names an error, which a
// runtime's trailer (Node's `code: ...`, `Node.js v20`) would otherwise push out of the tail.

/** One error line, as runtimes print them: `Error: ...`, `TypeError: ...`, `ModuleNotFoundError: ...`. */
const ERROR_LINE = /^\s*(?:[\w$.]+\.)?\w*(?:Error|Exception)\b.*:/;
const STACK_FRAME = /^\s+at\s/;

export class StderrTail {
  private readonly lines: string[] = [];
  private error: string | undefined;

  constructor(private readonly size: number) {}

  push(line: string): void {
    if (line.trim() === '' || STACK_FRAME.test(line)) return;
    if (ERROR_LINE.test(line)) this.error = line.trim();
    this.lines.push(line.trim());
    if (this.lines.length > this.size) this.lines.shift();
  }

  /** The lines worth quoting, oldest first; an error line that left the tail comes first, then `…`. */
  quote(): string[] {
    if (this.error === undefined || this.lines.includes(this.error)) return [...this.lines];
    return [this.error, '…', ...this.lines];
  }
}
