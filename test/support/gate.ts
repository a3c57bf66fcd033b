// The legacy fixture's `gate` tool from the test's side: calls that stay open until the test
// releases them, so that a test asserts what holds while a call is in flight without racing a
// fixed sleep. The gate is a file; the fixture appends to FILE.entered as each call starts.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Gate {
  /** The `gate` tool's arguments. */
  args: { file: string };
  /** How many calls of this gate have started in the fixture. */
  entered(): number;
  /** Lets every call of this gate, those running and those to come, return `released`. */
  release(): void;
}

/** This test process's gates, removed when it exits. */
let dir: string | undefined;

export function gate(): Gate {
  if (dir === undefined) {
    const made = mkdtempSync(join(tmpdir(), 'mrtr-gates-'));
    process.on('exit', () => rmSync(made, { recursive: true, force: true }));
    dir = made;
  }
  const file = join(mkdtempSync(join(dir, 'gate-')), 'open');
  return {
    args: { file },
    entered: () => (existsSync(`${file}.entered`) ? readFileSync(`${file}.entered`, 'utf8').split('\n').filter(Boolean).length : 0),
    release: () => writeFileSync(file, ''),
  };
}
