// The stderr lines a legacy child's exit is reported with (upstream/transport/stderr-tail.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isErrorLine, StderrTail } from '../../src/upstream/transport/stderr-tail.js';

const tailOf = (text: string, size = 5) => {
  const t = new StderrTail(size);
  for (const line of text.split('\n')) t.push(line);
  return t.quote();
};

describe('the stderr tail of a legacy child', () => {
  it('keeps the last lines', () => {
    assert.deepEqual(tailOf('one\ntwo\nthree', 2), ['two', 'three']);
  });

  it("keeps Node's error line ahead of its trailer, without blank lines and stack frames", () => {
    const node = [
      'node:internal/modules/cjs/loader:1228',
      '  throw err;',
      '  ^',
      '',
      "Error: Cannot find module '/nonexistent.js'",
      '    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15)',
      '    at node:internal/main/run_main_module:28:49 {',
      "  code: 'MODULE_NOT_FOUND',",
      '  requireStack: []',
      '}',
      '',
      'Node.js v20.20.2',
    ].join('\n');
    assert.deepEqual(tailOf(node), ["Error: Cannot find module '/nonexistent.js'", "code: 'MODULE_NOT_FOUND',", 'requireStack: []', '}', 'Node.js v20.20.2']);
    // With a shorter tail the error line leaves it, and is quoted first.
    assert.deepEqual(tailOf(node, 3), ["Error: Cannot find module '/nonexistent.js'", '…', 'requireStack: []', '}', 'Node.js v20.20.2']);
  });

  it('does not repeat an error line still in the tail (a Python traceback ends with it)', () => {
    assert.deepEqual(tailOf('Traceback (most recent call last):\n  File "s.py", line 1\nModuleNotFoundError: No module named mcp'), [
      'Traceback (most recent call last):',
      'File "s.py", line 1',
      'ModuleNotFoundError: No module named mcp',
    ]);
  });

  it('names error lines as runtimes print them, and not other lines', () => {
    for (const line of [
      "Error: Cannot find module '/x.js'",
      '  TypeError [ERR_INVALID_ARG_TYPE]: The "path" argument must be of type string',
      'ModuleNotFoundError: No module named mcp',
      'java.io.IOException: Broken pipe',
      'mcp.shared.exceptions.McpError: Connection closed',
      'RuntimeException: boom',
    ])
      assert.equal(isErrorLine(line), true, line);
    for (const line of ['Errors: 3', 'ErrorHandler: installed', 'an Error: in prose', 'TypeError without a colon', 'foo.: Error', '', 'Error$x: y', '.Error'])
      assert.equal(isErrorLine(line), false, line);
  });

  it('reads a hostile line in time linear in its head (a backtracking pattern took seconds)', () => {
    const tail = new StderrTail(5);
    const hostile = 'aError.'.repeat(10_000);
    const started = performance.now();
    tail.push(hostile);
    tail.push(` ${'a.'.repeat(30_000)}Error`);
    assert.ok(performance.now() - started < 50, `${performance.now() - started} ms`);
    assert.equal(tail.quote().length, 2);
  });
});
