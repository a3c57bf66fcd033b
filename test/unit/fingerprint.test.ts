import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { canonical, fingerprint } from '../../src/state/fingerprint.js';

describe('canonical', () => {
  it('sorts object keys at every depth', () => {
    const c = canonical({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } });
    assert.equal(JSON.stringify(c), '{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}');
  });

  it('keeps array order and primitives', () => {
    assert.deepEqual(canonical([3, 1, 2]), [3, 1, 2]);
    for (const v of [null, 1, 'x', true, undefined]) assert.equal(canonical(v), v);
  });

  it('does not mutate its input', () => {
    const input = { b: { y: 1, x: 2 }, a: 1 };
    canonical(input);
    assert.deepEqual(Object.keys(input), ['b', 'a']);
    assert.deepEqual(Object.keys(input.b), ['y', 'x']);
  });
});

describe('fingerprint', () => {
  const base = { method: 'tools/call', target: 'weather', args: { city: 'Paris', units: { temp: 'C', wind: 'kmh' }, days: [1, 2] } };

  it('is a 32-character base64url string and deterministic', () => {
    const f = fingerprint(base);
    assert.match(f, /^[A-Za-z0-9_-]{32}$/);
    assert.equal(fingerprint(base), f);
    assert.equal(fingerprint(structuredClone(base)), f);
  });

  it('does not depend on key order at any depth', () => {
    const reordered = { target: 'weather', args: { days: [1, 2], units: { wind: 'kmh', temp: 'C' }, city: 'Paris' }, method: 'tools/call' };
    assert.equal(fingerprint(reordered), fingerprint(base));
  });

  it('differs for different arguments', () => {
    const f = fingerprint(base);
    assert.notEqual(fingerprint({ ...base, args: { ...base.args, city: 'Lyon' } }), f);
    assert.notEqual(fingerprint({ ...base, args: { ...base.args, days: [2, 1] } }), f, 'array order matters');
    assert.notEqual(fingerprint({ ...base, args: { ...base.args, units: { temp: 'F', wind: 'kmh' } } }), f);
    assert.notEqual(fingerprint({ ...base, args: { ...base.args, extra: true } }), f);
    assert.notEqual(fingerprint({ ...base, args: { city: 'Paris' } }), f);
    assert.notEqual(fingerprint({ ...base, args: { ...base.args, days: ['1', '2'] } }), f, 'types matter');
  });

  it('differs for different targets and methods', () => {
    const f = fingerprint(base);
    assert.notEqual(fingerprint({ ...base, target: 'weather2' }), f);
    assert.notEqual(fingerprint({ ...base, method: 'prompts/get' }), f);
    assert.notEqual(fingerprint({ method: 'resources/read', target: 'file:///a' }), fingerprint({ method: 'resources/read', target: 'file:///b' }));
  });

  it('does not confuse method and target boundaries', () => {
    assert.notEqual(fingerprint({ method: 'a', target: 'bc' }), fingerprint({ method: 'ab', target: 'c' }));
    assert.notEqual(fingerprint({ method: 'tools/call', target: 'x', args: 'y' }), fingerprint({ method: 'tools/call', target: 'xy' }));
  });

  it('treats absent arguments as null but distinct from empty arguments', () => {
    const none = fingerprint({ method: 'resources/read', target: 'file:///a' });
    assert.equal(fingerprint({ method: 'resources/read', target: 'file:///a', args: undefined }), none);
    assert.equal(fingerprint({ method: 'resources/read', target: 'file:///a', args: null }), none);
    assert.notEqual(fingerprint({ method: 'resources/read', target: 'file:///a', args: {} }), none);
    assert.notEqual(
      fingerprint({ method: 'resources/read', target: 'file:///a', args: [] }),
      fingerprint({ method: 'resources/read', target: 'file:///a', args: {} }),
    );
  });
});
