// What a legacy child last wrote to stderr, kept to say why it exited: its last lines, without
// blank lines and stack frames (`    at ...`), and the last line that names an error, which a
// runtime's trailer (Node's `code: ...`, `Node.js v20`) would otherwise push out of the tail.

const STACK_FRAME = /^\s+at\s/;

/** How far into a line an error's name and its colon are looked for. */
const ERROR_HEAD_CHARS = 256;

/** A character of a dotted name: ASCII letters, digits, `_`, `$` and `.`. */
function isNameChar(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39) || code === 0x5f || code === 0x24 || code === 0x2e;
}

/**
 * One error line, as runtimes print them: `Error: ...`, `TypeError [ERR_X]: ...`,
 * `ModuleNotFoundError: ...`, `java.io.IOException: ...`: a (dotted) name whose last part ends in
 * Error or Exception, then a colon. Plain scans of the line's head, in time linear in that head
 * (the child writes the line: a backtracking pattern would let it stall the proxy).
 */
export function isErrorLine(line: string): boolean {
  const head = line.slice(0, ERROR_HEAD_CHARS).trimStart();
  let end = 0;
  while (end < head.length && isNameChar(head.charCodeAt(end))) end++;
  const last = head.slice(head.lastIndexOf('.', end - 1) + 1, end);
  if (last.includes('$') || !(last.endsWith('Error') || last.endsWith('Exception'))) return false;
  return head.includes(':', end);
}

export class StderrTail {
  private readonly lines: string[] = [];
  private error: string | undefined;

  constructor(private readonly size: number) {}

  push(line: string): void {
    if (line.trim() === '' || STACK_FRAME.test(line)) return;
    if (isErrorLine(line)) this.error = line.trim();
    this.lines.push(line.trim());
    if (this.lines.length > this.size) this.lines.shift();
  }

  /** The lines worth quoting, oldest first; an error line that left the tail comes first, then `…`. */
  quote(): string[] {
    if (this.error === undefined || this.lines.includes(this.error)) return [...this.lines];
    return [this.error, '…', ...this.lines];
  }
}
