// A legacy child's stderr cut into bounded lines (upstream/transport/stderr-lines.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { StderrLines } from '../../src/upstream/transport/stderr-lines.js';

const b = (s: string) => Buffer.from(s, 'utf8');

describe('StderrLines', () => {
  it('gives the lines a chunk ends, without their newline or a trailing carriage return, and the last one at the end', () => {
    const r = new StderrLines(64);
    assert.deepEqual(r.push(b('one\ntwo\r\nthr')), [
      { text: 'one', droppedBytes: 0 },
      { text: 'two', droppedBytes: 0 },
    ]);
    assert.deepEqual(r.push(b('ee\n\nfour')), [
      { text: 'three', droppedBytes: 0 },
      { text: '', droppedBytes: 0 },
    ]);
    assert.deepEqual(r.end(), { text: 'four', droppedBytes: 0 });
    assert.equal(r.end(), undefined);
  });

  it('keeps the start of a long line and counts what it drops, across chunks', () => {
    const r = new StderrLines(8);
    assert.deepEqual(r.push(b('12345')), []);
    assert.deepEqual(r.push(b('6789abc')), []);
    assert.deepEqual(r.push(b('def\nnext\n')), [
      { text: '12345678', droppedBytes: 7 },
      { text: 'next', droppedBytes: 0 },
    ]);
    assert.deepEqual(r.push(b('x'.repeat(100))), []);
    assert.deepEqual(r.end(), { text: 'xxxxxxxx', droppedBytes: 92 });
  });

  it('holds no more than the limit of a line that never ends, however much arrives', () => {
    const r = new StderrLines(1024);
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    for (let i = 0; i < 200; i++) assert.deepEqual(r.push(chunk), []);
    const held = (r as unknown as { pieces: Buffer[] }).pieces.reduce((n, p) => n + p.length, 0);
    assert.equal(held, 1024);
    assert.deepEqual(r.end(), { text: 'a'.repeat(1024), droppedBytes: 200 * 64 * 1024 - 1024 });
  });

  it('gives each line cut to the limit, however the bytes are chunked', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 40 }), { maxLength: 8 }), fc.array(fc.nat({ max: 50 }), { maxLength: 6 }), (lines, cuts) => {
        const text = lines.map((l) => l.replace(/[\r\n]/g, '')).join('\n');
        const bytes = b(`${text}\n`);
        const r = new StderrLines(16);
        const got = [];
        let at = 0;
        for (const cut of [...cuts, bytes.length]) {
          const end = Math.min(bytes.length, at + cut);
          got.push(...r.push(bytes.subarray(at, end)));
          at = end;
        }
        assert.equal(r.end(), undefined);
        const expected = text.split('\n').map((l) => {
          const lb = b(l);
          return { bytes: lb.subarray(0, 16).toString('utf8'), droppedBytes: Math.max(0, lb.length - 16) };
        });
        assert.deepEqual(
          got.map((g) => ({ bytes: g.text, droppedBytes: g.droppedBytes })),
          expected,
        );
      }),
    );
  });
});
