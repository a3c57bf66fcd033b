// The audit of a call that ran on roots the proxy asked for before it (docs/roots.md): the record
// says there was a roots round and, with --audit-questions, whether the result named one of those
// roots, as a boolean: never the roots or the result's text.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AuditRecord } from '../../src/audit/record.js';
import { AuditRecorder } from '../../src/audit/recorder.js';
import { resultNamesRoots, rootNeedles } from '../../src/audit/roots-named.js';
import { testClock } from '../support/clock.js';

const ROOTS = [{ uri: 'file:///work/my%20project', name: 'secret-name' }];
const text = (t: string) => ({ content: [{ type: 'text', text: t }] });

describe('resultNamesRoots', () => {
  it('finds a root by its URI or by its file path, in text or structured content', () => {
    assert.equal(resultNamesRoots('tools/call', text('1. project\n   URI: file:///work/my%20project'), ROOTS), true);
    assert.equal(resultNamesRoots('tools/call', text('listing /work/my project/src:'), ROOTS), true);
    assert.equal(resultNamesRoots('tools/call', { content: [], structuredContent: { dirs: ['/work/my project/'] } }, ROOTS), true);
    assert.equal(resultNamesRoots('prompts/get', { messages: [{ role: 'user', content: { type: 'text', text: 'in /work/my project' } }] }, ROOTS), true);
    assert.equal(resultNamesRoots('resources/read', { contents: [{ uri: 'x://y', text: 'see file:///work/my%20project/' }] }, ROOTS), true);
    assert.equal(resultNamesRoots('tools/call', text('https://github.com/o/r/pull/1'), [{ uri: 'https://github.com/o/r/' }]), true);
  });

  it('does not take a longer name, another tree, _meta or a result without text for the root', () => {
    assert.equal(resultNamesRoots('tools/call', text('Echo: x'), ROOTS), false);
    assert.equal(resultNamesRoots('tools/call', text('/work/my projects'), ROOTS), false);
    assert.equal(resultNamesRoots('tools/call', text('/home/work/my project'), ROOTS), false);
    assert.equal(resultNamesRoots('tools/call', { content: [], _meta: { root: '/work/my project' } }, ROOTS), false);
    assert.equal(resultNamesRoots('tools/call', text('/work/my project'), []), false);
  });

  it('lets no root of the whole file system name everything', () => {
    assert.deepEqual(rootNeedles({ uri: 'file:///' }), []);
    assert.equal(resultNamesRoots('tools/call', text('/etc/hosts'), [{ uri: 'file:///' }]), false);
    assert.deepEqual(rootNeedles({ uri: 'file:///a/b/' }), ['file:///a/b', '/a/b']);
  });
});

describe('audit recorder: the roots round', () => {
  function record(questions: boolean, rootsRound: boolean, result: Record<string, unknown>): AuditRecord {
    const out: AuditRecord[] = [];
    const r = new AuditRecorder({ upstream: 'u', clock: testClock(), content: false, questions, sink: (x) => out.push(x) });
    r.onStart({
      handle: 'h',
      method: 'tools/call',
      params: { name: 'get-roots-list' },
      mode: 'hold',
      roots: ROOTS,
      ...(rootsRound ? { rootsRound: true as const } : {}),
    });
    r.onEnd({ handle: 'h', reason: 'completed', result });
    return out[0]!;
  }

  it('says a call had the roots round and, with --audit-questions, whether its result named the roots', () => {
    const named = record(true, true, text('URI: file:///work/my%20project'));
    assert.equal(named.rootsRound, true);
    assert.equal(named.resultNamesRoots, true);
    assert.equal(record(true, true, text('Echo: x')).resultNamesRoots, false);
    assert.doesNotMatch(JSON.stringify(named), /work|secret-name/, 'neither the roots nor the text are written');
  });

  it('keeps only the fact of the round without --audit-questions, and nothing for a call without one', () => {
    const plain = record(false, true, text('URI: file:///work/my%20project'));
    assert.equal(plain.rootsRound, true);
    assert.equal('resultNamesRoots' in plain, false);
    const none = record(true, false, text('URI: file:///work/my%20project'));
    assert.equal('rootsRound' in none, false);
    assert.equal('resultNamesRoots' in none, false);
  });
});
