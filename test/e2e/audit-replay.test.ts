// The audit of replayed calls: every run of a replayed call leaves a record on the instance that
// ran it, linked by the call's id; `mrtr-proxy report` over the instances' files joins the runs into
// one call and says whether replaying matched. Two real proxies sharing a key, the legacy fixture
// over stdio behind each.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuditRecord } from '../../src/audit/record.js';
import type { ReportModel } from '../../src/report/model.js';
import { textOf } from '../support/client.js';
import { FIXTURE, PROXY_BIN, startProxy, type ProxyProcess } from '../support/processes.js';
import { inputRequired, rpc } from '../support/rpc.js';

const CAPS = { elicitation: { form: {} } };
const SECRET = 'planted-street-name-9941';

describe('audit and report of replayed calls', () => {
  const dir = mkdtempSync(join(tmpdir(), 'audit-replay-'));
  const files = [join(dir, 'a.jsonl'), join(dir, 'b.jsonl')];
  let a: ProxyProcess;
  let b: ProxyProcess;
  let records: AuditRecord[] = [];
  const call = (p: ProxyProcess, name: string, extra: Record<string, unknown> = {}) =>
    rpc(p.url, 'tools/call', { name, arguments: {}, ...extra }, { caps: CAPS });
  const answer = (requestState: string, key: string, content: Record<string, string>) => ({
    requestState,
    inputResponses: { [key]: { action: 'accept', content } },
  });

  before(async () => {
    // One session per instance, so that a rerun meets the same legacy process (ask-changing counts its runs).
    const args = (f: string) => ['--audit', f, '--suspend', 'replay', '--max-sessions', '1', '--spare-sessions', '0', '--', process.execPath, FIXTURE];
    a = await startProxy(args(files[0]!));
    b = await startProxy(args(files[1]!));
    // lookup asks three questions: its four runs alternate between the instances.
    const r1 = inputRequired(await call(a, 'lookup'));
    const r2 = inputRequired(await call(b, 'lookup', answer(r1.requestState, 'elicitation-1', { city: 'Oslo' })));
    const r3 = inputRequired(await call(a, 'lookup', answer(r2.requestState, 'elicitation-2', { street: SECRET })));
    const done = await call(b, 'lookup', answer(r3.requestState, 'elicitation-3', { number: '7' }));
    assert.match(textOf(done.body.result), new RegExp(`Oslo, ${SECRET} 7`));
    // ask-changing asks `color` on its first run in a process and `shape` after: one mismatch, and the call goes on held.
    const c1 = inputRequired(await call(a, 'ask-changing'));
    const c2 = inputRequired(await call(a, 'ask-changing', answer(c1.requestState, 'elicitation-1', { color: 'red' })));
    assert.ok(c2.inputRequests['elicitation-1'], 'the changed question is asked anew, at the same position');
    const c3 = await call(a, 'ask-changing', answer(c2.requestState, 'elicitation-1', { shape: 'round' }));
    assert.equal(textOf(c3.body.result), 'shape=round');
    // Left waiting: its last run let go and nobody retried.
    inputRequired(await call(b, 'lookup'));
    assert.equal(await a.stop('SIGTERM'), 0);
    assert.equal(await b.stop('SIGTERM'), 0);
    records = files.flatMap((f) =>
      readFileSync(f, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as AuditRecord),
    );
  });
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it('writes one record per run, linked by the call id, with what the record answered', () => {
    const lookup = records.filter((r) => r.target === 'lookup');
    const calls = new Set(lookup.map((r) => r.replay?.call));
    assert.equal(calls.size, 2, 'two lookup calls');
    const first = lookup.filter((r) => r.replay?.call === lookup[0]!.replay!.call).sort((x, y) => x.replay!.run - y.replay!.run);
    assert.deepEqual(
      first.map((r) => [r.replay!.run, r.replay!.fromRecord, r.replay!.mismatched, r.outcome.kind]),
      [
        [1, 0, 0, 'let_go'],
        [2, 1, 0, 'let_go'],
        [3, 2, 0, 'let_go'],
        [4, 3, 0, 'complete'],
      ],
    );
    // Run 3 (on a) answers what run 2 asked on b: a knows nothing of that question's schema, so no field names (they could be the client's).
    assert.deepEqual(first[2]!.replay!.answered, [{ round: 2, key: 'elicitation-2', method: 'elicitation/create', action: 'accept' }]);
    assert.doesNotMatch(JSON.stringify(records), new RegExp(SECRET), 'no user content without --audit-content');
  });

  it('joins the runs in the report: calls, rounds, actions and whether replays matched', () => {
    const r = spawnSync(
      process.execPath,
      [PROXY_BIN, 'report', '--audit', files[0]!, '--audit', files[1]!, '--format', 'json', '--', process.execPath, FIXTURE],
      {
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    assert.equal(r.status, 0, r.stderr);
    const model = JSON.parse(r.stdout) as ReportModel;
    const item = (name: string) => model.items.find((i) => i.name === name)!;
    const lookup = item('lookup');
    assert.equal(lookup.calls, 2);
    assert.deepEqual(lookup.rounds, { 3: 1, 1: 1 });
    assert.deepEqual(lookup.outcomes, { complete: 1, unanswered: 1 });
    assert.deepEqual(lookup.replay, { calls: 2, runs: 5, fromRecord: 6, mismatched: 0 });
    assert.deepEqual(
      lookup.questions.map((q) => [q.round, Object.keys(q.schema!.properties), q.actions]),
      [
        [1, ['city'], { accept: 1, unanswered: 1 }],
        [2, ['street'], { accept: 1 }],
        [3, ['number'], { accept: 1 }],
      ],
    );
    assert.ok(lookup.thinkMs, 'think time across runs');
    // Its second run asked another question: held from there, it ended in that run.
    assert.deepEqual(item('ask-changing').replay, { calls: 1, runs: 2, fromRecord: 0, mismatched: 1 });
    assert.deepEqual(item('ask-changing').rounds, { 2: 1 }, 'its held round is the second round of the call');
    const md = spawnSync(process.execPath, [PROXY_BIN, 'report', '--audit', files[0]!, '--format', 'md', '--', process.execPath, FIXTURE], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.match(
      md.stdout,
      /replays: 1 replayed call\(s\) in 2 run\(s\); 0 answer\(s\) served from the record; 1 re-run question\(s\) did not match the record and were asked anew/,
    );
  });
});
