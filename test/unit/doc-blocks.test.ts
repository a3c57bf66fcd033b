// The runnable marks of the docs (support/doc-blocks.ts): which block belongs to which scenario, in
// what role, and a mark that cannot be run is an error rather than a block silently not run.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runnableBlocks } from '../support/doc-blocks.js';

const doc = [
  'Start it:',
  '<!-- runnable: a start "listening on" 2 -->',
  '```sh',
  'serve',
  '```',
  '<!-- runnable: a,b prelude -->',
  '```sh',
  'post() { :; }',
  '```',
  '<!-- runnable: b file conf/x.conf -->',
  '```nginx',
  'events {}',
  '```',
  '<!-- runnable: a expect "done" -->',
  '```sh',
  'post',
  '```',
  '```sh',
  'not marked',
  '```',
].join('\n');

describe('runnable doc blocks', () => {
  it('gives each scenario its blocks in order, with their roles', () => {
    const s = runnableBlocks('x.md', doc);
    assert.deepEqual(
      s.get('a')?.map((b) => [b.at, b.role, b.text]),
      [
        ['x.md:2', { kind: 'start', ready: 'listening on', times: 2 }, 'serve\n'],
        ['x.md:6', { kind: 'prelude' }, 'post() { :; }\n'],
        ['x.md:14', { kind: 'expect', text: 'done' }, 'post\n'],
      ],
    );
    assert.deepEqual(
      s.get('b')?.map((b) => b.role.kind),
      ['prelude', 'file'],
    );
  });

  it('refuses a mark it cannot run', () => {
    assert.throws(() => runnableBlocks('x.md', '<!-- runnable: a expect done -->\n```sh\nx\n```\n'), /x\.md:1: expect needs "TEXT"/);
    assert.throws(() => runnableBlocks('x.md', '<!-- runnable: a prelude -->\n\n```sh\nx\n```\n'), /followed at once by a fenced block/);
    assert.throws(() => runnableBlocks('x.md', '<!-- runnable: a wait -->\n```sh\nx\n```\n'), /not a runnable mark/);
  });
});
