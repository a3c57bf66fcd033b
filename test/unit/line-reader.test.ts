import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LineReader } from '../../src/upstream/transport/line-reader.js';

const b = (s: string) => Buffer.from(s, 'utf8');

describe('LineReader', () => {
  it('gives the lines a chunk completes, without their newline or a trailing carriage return', () => {
    const r = new LineReader();
    assert.deepEqual(r.push(b('{"a":1}\n{"b":2}\r\n{"c"')), ['{"a":1}', '{"b":2}']);
    assert.deepEqual(r.push(b(':3}')), []);
    assert.deepEqual(r.push(b('\n')), ['{"c":3}']);
    assert.deepEqual(r.push(b('\n')), ['']);
  });

  it('joins a multi-byte character split across chunks', () => {
    const r = new LineReader();
    const line = b('{"text":"é€😀"}\n');
    const lines: string[] = [];
    for (let i = 0; i < line.length; i++) lines.push(...r.push(line.subarray(i, i + 1)));
    assert.deepEqual(lines, ['{"text":"é€😀"}']);
  });

  it('refuses a line past the limit, whether it ends in the chunk or not, and forgets it', () => {
    const r = new LineReader(8);
    assert.throws(() => r.push(b('123456789')), /exceeded 8 bytes/);
    assert.deepEqual(r.push(b('ok\n')), ['ok']);
    r.push(b('12345'));
    assert.throws(() => r.push(b('6789\n')), /exceeded 8 bytes/);
    assert.deepEqual(r.push(b('12345678\n')), ['12345678']);
  });

  it('clear drops an unfinished line', () => {
    const r = new LineReader();
    r.push(b('half'));
    r.clear();
    assert.deepEqual(r.push(b('whole\n')), ['whole']);
  });

  it('frames any text cut into any chunks as the text split on newlines', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ unit: 'grapheme' }).map((s) => s.replaceAll('\n', '')),
          { maxLength: 8 },
        ),
        fc.array(fc.nat(64)),
        (lines, cuts) => {
          const all = b(lines.map((l) => `${l}\n`).join(''));
          const r = new LineReader();
          const got: string[] = [];
          let at = 0;
          for (const cut of cuts) {
            got.push(...r.push(all.subarray(at, Math.min(all.length, at + cut))));
            at = Math.min(all.length, at + cut);
          }
          got.push(...r.push(all.subarray(at)));
          assert.deepEqual(
            got,
            lines.map((l) => l.replace(/\r$/, '')),
          );
        },
      ),
    );
  });
});
