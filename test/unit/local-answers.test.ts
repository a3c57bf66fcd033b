import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { answerLocally } from '../../src/protocol/local-answers.js';
import type { Root } from '../../src/config/types.js';

describe('answerLocally', () => {
  it('answers roots/list with the configured roots', () => {
    const roots: Root[] = [{ uri: 'file:///work', name: 'work' }, { uri: 'file:///tmp' }];
    assert.deepEqual(answerLocally('roots/list', roots), { result: { roots: [{ uri: 'file:///work', name: 'work' }, { uri: 'file:///tmp' }] } });
  });

  it('answers roots/list with an empty list when none are configured', () => {
    assert.deepEqual(answerLocally('roots/list', []), { result: { roots: [] } });
  });

  it('hands out copies, so the caller cannot change the configuration', () => {
    const roots: Root[] = [{ uri: 'file:///work', name: 'work' }];
    const answer = answerLocally('roots/list', roots);
    assert.ok('result' in answer);
    const listed = answer.result['roots'] as Root[];
    assert.notEqual(listed[0], roots[0]);
    listed[0]!.name = 'changed';
    listed.push({ uri: 'file:///evil' });
    assert.deepEqual(roots, [{ uri: 'file:///work', name: 'work' }]);
    assert.deepEqual(answerLocally('roots/list', roots), { result: { roots: [{ uri: 'file:///work', name: 'work' }] } });
  });

  it('cancels elicitation (there is nobody to ask)', () => {
    assert.deepEqual(answerLocally('elicitation/create', []), { result: { action: 'cancel' } });
  });

  it('refuses sampling outside an interactive call', () => {
    const a = answerLocally('sampling/createMessage', [{ uri: 'file:///x' }]);
    assert.ok('error' in a);
    assert.equal(a.error.code, -1);
    assert.match(a.error.message, /only available during an interactive call/);
  });

  it('answers any other method with method-not-found naming it', () => {
    for (const method of ['ping', 'tasks/get', 'something/else']) {
      assert.deepEqual(answerLocally(method, []), { error: { code: -32601, message: `mrtr-proxy does not answer ${method}` } });
    }
  });
});
