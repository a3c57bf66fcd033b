// LightAbort behaves as an AbortController's signal does for what the proxy and the v1 SDK read.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LightAbort } from '../../src/runtime/light-abort.js';

describe('LightAbort', () => {
  it('runs its listeners once, synchronously, in order, with the reason set', () => {
    const a = new LightAbort();
    const seen: string[] = [];
    a.addEventListener('abort', () => seen.push(`one ${String(a.reason)}`));
    a.addEventListener('abort', () => seen.push('two'), { once: true });
    a.addEventListener('abort', () => seen.push('three'));
    assert.equal(a.aborted, false);
    a.throwIfAborted();
    a.abort('why');
    assert.deepEqual(seen, ['one why', 'two', 'three']);
    a.abort('again');
    assert.equal(a.reason, 'why');
    assert.deepEqual(seen, ['one why', 'two', 'three']);
    assert.throws(
      () => a.throwIfAborted(),
      (e: unknown) => e === 'why',
    );
  });

  it('never runs a listener added after the abort, nor one removed, nor one twice', () => {
    const a = new LightAbort();
    let runs = 0;
    const f = () => runs++;
    const g = () => runs++;
    a.addEventListener('abort', f);
    a.addEventListener('abort', f);
    a.addEventListener('abort', g);
    a.removeEventListener('abort', g);
    a.abort();
    a.addEventListener('abort', g);
    assert.equal(runs, 1);
  });

  it('gives an AbortError without a reason, as AbortController does', () => {
    const a = new LightAbort();
    const c = new AbortController();
    a.abort();
    c.abort();
    assert.ok(a.reason instanceof DOMException);
    assert.equal((a.reason as DOMException).name, (c.signal.reason as DOMException).name);
  });
});
