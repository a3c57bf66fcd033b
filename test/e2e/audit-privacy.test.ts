// What the audit keeps, end to end: a client plants a unique marker in every value that is its own
// (tool arguments, a template's variables in a URI read, answers, field names the requested schema
// does not have, a URI the server echoes in its error) and the marker reaches neither the audit
// file, nor the report in any format, nor the proxy's log and access log without --audit-content.
// With it, the audit holds them (the test can see a marker where it is kept).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuditRecord } from '../../src/audit/record.js';
import { FIXTURE, PROXY_BIN, startProxy } from '../support/processes.js';
import { ALL_CAPS, inputRequired, rpc } from '../support/rpc.js';

const MARK = `mk${process.pid}x${Date.now().toString(36)}`;
const ARGUMENT = `${MARK}-argument`;
const VARIABLE = `${MARK}-variable@example.com`;
const ANSWER = `${MARK}-answer`;
const INVENTED = `${MARK}-invented-field`;
const ECHOED = `${MARK}-echoed`;

/** Runs the calls that carry the markers through a proxy started with `flags`; returns the audit text and the proxy's stderr. */
async function session(flags: string[]): Promise<{ file: string; audit: string; stderr: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'audit-privacy-'));
  const file = join(dir, 'audit.jsonl');
  const proxy = await startProxy(['--audit', file, '--access-log', 'on', ...flags, '--', process.execPath, FIXTURE]);
  try {
    // A tool's arguments; an answer with a field the requested schema has and one the client made up.
    const call = (extra: Record<string, unknown> = {}) =>
      rpc(proxy.url, 'tools/call', { name: 'ask-name', arguments: { greeting: ARGUMENT }, ...extra }, { caps: ALL_CAPS });
    const asked = inputRequired(await call());
    const done = await call({
      requestState: asked.requestState,
      inputResponses: { 'elicitation-1': { action: 'accept', content: { name: ANSWER, [INVENTED]: 'x' } } },
    });
    assert.match(JSON.stringify(done.body.result), new RegExp(ANSWER), 'the answer reached the legacy server');
    // A template's variable in the URI read, answered too.
    const uri = `fixture://note/${VARIABLE}`;
    const note = inputRequired(await rpc(proxy.url, 'resources/read', { uri }, { caps: ALL_CAPS }));
    const read = await rpc(
      proxy.url,
      'resources/read',
      { uri, requestState: note.requestState, inputResponses: { [Object.keys(note.inputRequests)[0]!]: { action: 'accept', content: { who: ANSWER } } } },
      { caps: ALL_CAPS },
    );
    assert.match(JSON.stringify(read.body.result), new RegExp(VARIABLE), 'the read reached the legacy server');
    // A URI that matches nothing the server declared: the legacy error echoes it.
    const missing = await rpc(proxy.url, 'resources/read', { uri: `fixture://nowhere/${ECHOED}` }, { caps: ALL_CAPS });
    assert.match(JSON.stringify(missing.body.error), new RegExp(ECHOED), 'the legacy server echoed the URI in its error');
  } finally {
    assert.equal(await proxy.stop('SIGTERM'), 0);
  }
  return { file, audit: readFileSync(file, 'utf8'), stderr: proxy.stderr() };
}

function report(audit: string, format: string): string {
  const r = spawnSync(process.execPath, [PROXY_BIN, 'report', '--audit', audit, '--format', format, '--', process.execPath, FIXTURE], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(r.status, 0, r.stderr);
  return `${r.stdout}\n${r.stderr}`;
}

describe('the audit keeps what its rule says', () => {
  it('without --audit-content: no marker in the audit, the reports, the log or the access log; reads under their template', async () => {
    const { file, audit, stderr } = await session(['--audit-questions']);
    const outputs: Record<string, string> = { audit, stderr, md: report(file, 'md'), html: report(file, 'html'), json: report(file, 'json') };
    const markers = { ARGUMENT, VARIABLE, ANSWER, INVENTED, ECHOED };
    const leaks = Object.entries(outputs).flatMap(([where, text]) =>
      Object.entries(markers)
        .filter(([, m]) => text.includes(m))
        .map(([what]) => `${what} in ${where}`),
    );
    assert.deepEqual(leaks, [], 'no marked value anywhere');
    assert.doesNotMatch(Object.values(outputs).join('\n'), new RegExp(MARK));
    assert.equal((statSync(file).mode & 0o777).toString(8), '600', 'the audit file is its owner’s');
    const records = audit
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as AuditRecord);
    const reads = records.filter((r) => r.method === 'resources/read');
    // The note is read by replay (a resource has no side effects): a run that asked, then one that completed.
    assert.deepEqual(
      reads.map((r) => [r.target, r.undeclared ?? false, r.outcome.kind]),
      [
        ['fixture://note/{id}', false, 'let_go'],
        ['fixture://note/{id}', false, 'complete'],
        ['fixture:', true, 'error'],
      ],
    );
    assert.deepEqual(Object.keys(reads[2]!.outcome).sort(), ['code', 'kind'], 'the error code, not its message');
    assert.deepEqual(records[0]!.requests[0]!.fields, ['name'], 'only the field the schema asked for');
    assert.ok(
      stderr.split('\n').some((l) => l.includes('"access"') && l.includes('fixture://note/{id}')),
      'the access log names the read by its template',
    );
    assert.match(outputs['md']!, /### resource `fixture:\/\/note\/\{id\}`/, 'the report lists the read under its template');
  });

  it('with --audit-content: the audit keeps the arguments, the URI, the answers and the error message', async () => {
    const { audit } = await session(['--audit-content']);
    for (const m of [ARGUMENT, VARIABLE, ANSWER, INVENTED, ECHOED]) assert.match(audit, new RegExp(m));
  });
});
