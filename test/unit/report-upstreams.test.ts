// Audited upstream names against the inspected ones (report/audit-upstreams.ts): plain data.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { matchAuditUpstreams } from '../../src/report/audit-upstreams.js';

describe('audited upstreams against the inspected ones', () => {
  it('changes nothing when every audited name is inspected', () => {
    assert.deepEqual(matchAuditUpstreams(['a', 'b'], ['a', 'b', 'a'], false), { rename: new Map(), notes: [] });
  });

  it('gives the one server named on the command line the calls of the one audited upstream, and says so', () => {
    const m = matchAuditUpstreams(['default'], ['tickets', 'tickets'], true);
    assert.deepEqual([...m.rename], [['tickets', 'default']]);
    assert.match(m.notes[0]!, /upstream 'tickets': reported as the server named on the command line/);
  });

  it('warns about audited names that match none of a configuration file, and renames nothing', () => {
    const m = matchAuditUpstreams(['tickets'], ['default'], false);
    assert.equal(m.rename.size, 0);
    assert.match(m.notes[0]!, /audited upstream 'default' matches none of the inspected ones \('tickets'\)/);
  });

  it('warns rather than guesses when the audit names several upstreams and one server is inspected', () => {
    const m = matchAuditUpstreams(['default'], ['tickets', 'billing'], true);
    assert.equal(m.rename.size, 0);
    assert.match(m.notes[0]!, /audited upstreams 'tickets', 'billing' match none/);
  });
});
