// The table of `data.reason` values: each row is in docs/errors.md and each documented row is in the
// table, with the same JSON-RPC code and action; every ProxyError goes on the wire with its reason
// and action; whatever is thrown is encoded in one place, an unknown fault as -32603 `internal`.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProtocolError } from '@modelcontextprotocol/server';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { encodeError, INTERNAL_MESSAGE } from '../../src/protocol/encode-error.js';
import { ProxyError, type ProxyErrorArgs, UpstreamError, wireCodeOf } from '../../src/protocol/errors.js';
import { type Action, REASONS, reasonRows } from '../../src/protocol/reasons.js';
import { ROOT } from '../support/processes.js';

const ACTIONS: readonly Action[] = ['retry', 'resend', 'fix', 'stop'];

/** The cells of a Markdown table row, each with its surrounding backticks removed. */
function cells(line: string): string[] {
  return line
    .slice(1, -1)
    .split('|')
    .map((c) => c.trim().replace(/^`(.*)`$/, '$1'));
}

/** The rows of the table under `heading` in docs/FILE, header and rule skipped. */
function docTable(heading: string, file = 'errors.md'): string[][] {
  const text = readFileSync(join(ROOT, 'docs', file), 'utf8');
  const from = text.indexOf(`\n## ${heading}\n`);
  assert.ok(from >= 0, `docs/${file} has a "## ${heading}" section`);
  const lines = text.slice(from).split('\n').slice(2);
  const start = lines.findIndex((l) => l.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(start)) {
    if (!line.startsWith('|')) break;
    rows.push(cells(line));
  }
  return rows.slice(2);
}

function collect(): { errors: string[]; log: { error(message: string, meta: Record<string, unknown>): void } } {
  const errors: string[] = [];
  return { errors, log: { error: (message, meta) => void errors.push(`${message} ${String(meta['error'])}`) } };
}

describe('reasons', () => {
  it('documents every reason of the table in docs/errors.md, with its code and action, and no other', () => {
    const documented = docTable('Reasons').map(([reason, family, code, action]) => `${reason} ${family} ${code} ${action}`);
    const table = reasonRows().map((r) => `${r.reason} ${r.code} ${wireCodeOf(r.code)} ${r.action}`);
    assert.deepEqual([...documented].sort(), [...table].sort());
    assert.equal(new Set(documented).size, documented.length, 'no row is documented twice');
  });

  it('gives every reason a row in docs/troubleshooting.md with its action and what an operator can check', () => {
    const rows = docTable('Errors by reason', 'troubleshooting.md');
    const documented = rows.map(([reason, family, client]) => `${reason} ${family} ${client?.split(/[ :]/)[0]?.replaceAll('`', '')}`);
    const table = reasonRows().map((r) => `${r.reason} ${r.code} ${r.action}`);
    assert.deepEqual([...documented].sort(), [...table].sort());
    for (const [reason, family, , operator] of rows) assert.ok((operator ?? '').length > 10, `${family}/${reason} says what an operator can check`);
  });

  it('documents every action, and every action the table uses is one of them', () => {
    assert.deepEqual(
      docTable('Actions').map(([action]) => action),
      ACTIONS,
    );
    for (const r of reasonRows()) assert.ok(ACTIONS.includes(r.action), `${r.code}/${r.reason}: ${r.action}`);
  });

  it('gives every family at least one reason', () => {
    for (const [family, reasons] of Object.entries(REASONS)) assert.ok(Object.keys(reasons).length > 0, family);
  });

  it('puts the reason and its action on the wire of every ProxyError, beside its extra data', () => {
    const row = fc.constantFrom(...reasonRows());
    const extra = fc.dictionary(
      fc.string().filter((k) => k !== 'reason' && k !== 'action' && k !== '__proto__'),
      fc.jsonValue(),
      { maxKeys: 4 },
    );
    fc.assert(
      fc.property(row, fc.string(), extra, (r, message, more) => {
        const err = new ProxyError(...([r.code, r.reason, message, more] as ProxyErrorArgs));
        const { log, errors } = collect();
        const wire = encodeError(err, log);
        assert.deepEqual(wire, { code: wireCodeOf(r.code), message, data: { reason: r.reason, action: r.action, ...more } });
        assert.deepEqual(errors, [], 'an error of the proxy is not a fault to log');
      }),
    );
  });

  it('refuses a reason its family does not list, at compile time', () => {
    // @ts-expect-error a free-text reason
    const free = () => new ProxyError('overloaded', 'too many calls', 'message');
    // @ts-expect-error a reason of another family
    const other = () => new ProxyError('timeout', 'waiting_limit', 'message');
    // @ts-expect-error the reason and action are the table's, never extra data
    const forced = () => new ProxyError('timeout', 'call_timeout', 'message', { action: 'retry' });
    assert.equal(typeof free + typeof other + typeof forced, 'functionfunctionfunction');
  });
});

describe('encodeError', () => {
  it('answers an unknown fault with -32603 internal, logs its stack once, and sends nothing of it', () => {
    const { log, errors } = collect();
    const fault = new TypeError('secret detail at /srv/app');
    const wire = encodeError(fault, log);
    assert.deepEqual(wire, { code: -32603, message: INTERNAL_MESSAGE, data: { reason: 'internal', action: 'stop' } });
    assert.equal(errors.length, 1);
    assert.match(errors[0]!, /TypeError: secret detail at \/srv\/app\n\s+at /);
    assert.doesNotMatch(JSON.stringify(wire), /secret/);
    assert.equal(encodeError('a thrown string', log).code, -32603);
    assert.equal(errors.length, 2);
  });

  it('answers a legacy connection that ended under the request with upstream_incomplete', () => {
    const { log, errors } = collect();
    for (const code of [-32000, -32001]) {
      const wire = encodeError(new McpError(code, 'Connection closed'), log);
      assert.deepEqual(wire, {
        code: -32603,
        message: 'the legacy server did not complete the request: Connection closed',
        data: { reason: 'upstream_incomplete', action: 'retry' },
      });
    }
    assert.deepEqual(errors, []);
  });

  it("passes a legacy server's own error and the SDK's refusals on as they are", () => {
    const { log, errors } = collect();
    const wire = { code: -32602, message: 'unknown city', data: { city: 'Atlantis' } };
    assert.deepEqual(encodeError(new UpstreamError(wire), log), wire);
    assert.deepEqual(encodeError(new McpError(-32002, 'Resource not found', { uri: 'x://y' }), log), {
      code: -32602,
      message: 'Resource not found',
      data: { uri: 'x://y' },
    });
    assert.deepEqual(encodeError(new ProtocolError(-32601, 'Method not found'), log), { code: -32601, message: 'Method not found', data: undefined });
    assert.deepEqual(errors, []);
  });
});
