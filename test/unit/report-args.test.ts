// `mrtr-proxy report` arguments: --handlers needs a language it can write, and an option value it
// cannot honour is an error, never ignored.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseReportArgs } from '../../src/cli/report.js';

const CMD = ['--', 'node', 'server.js'];

describe('report arguments', () => {
  it('takes --handlers DIR with --lang ts', () => {
    const p = parseReportArgs(['--audit', 'a.jsonl', '--handlers', 'out', '--lang', 'ts', ...CMD]);
    assert.ok(!p.help);
    assert.deepEqual(p.handlers, { dir: 'out', lang: 'ts' });
  });

  it('refuses a language it does not write, --lang alone and --handlers alone', () => {
    assert.throws(() => parseReportArgs(['--handlers', 'out', '--lang', 'go', ...CMD]), /--lang: expected ts or py/);
    assert.throws(() => parseReportArgs(['--lang', 'ts', ...CMD]), /--lang needs --handlers DIR/);
    assert.throws(() => parseReportArgs(['--handlers', 'out', ...CMD]), /--handlers needs --lang/);
    assert.throws(() => parseReportArgs(['--handlers=', '--lang', 'ts', ...CMD]), /empty directory name/);
  });
});
