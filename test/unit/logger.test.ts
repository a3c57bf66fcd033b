// The logger: a line below the level costs nothing (it never reaches winston's stream), a line at
// or above it is written, in the root logger and its children alike, and a changed level applies.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger } from '../../src/telemetry/logger.js';

describe('logger levels', () => {
  it('does not hand a line below the level to winston, and writes the others', () => {
    const log = createLogger('info');
    const written: string[] = [];
    const write = log.write.bind(log);
    log.write = (info: { message: string }) => {
      written.push(info.message);
      return write(info);
    };
    log.silent = true;
    const child = log.child({ upstream: 'u' });
    log.debug('root debug', { a: 1 });
    child.debug('child debug');
    log.info('root info');
    child.warn('child warn', { b: 2 });
    assert.deepEqual(written, ['root info', 'child warn']);
    log.level = 'debug';
    child.debug('debug now');
    assert.deepEqual(written, ['root info', 'child warn', 'debug now']);
  });

  it('still blanks secrets out of lines it writes', () => {
    const secret = 'k'.repeat(43);
    const log = createLogger('info', [secret]);
    const lines: string[] = [];
    const stderrWrite = process.stderr.write;
    process.stderr.write = ((chunk: string | Uint8Array) => lines.push(String(chunk)) > 0) as typeof process.stderr.write;
    try {
      log.debug(`not written ${secret}`);
      log.info(`the key is ${secret}`);
    } finally {
      process.stderr.write = stderrWrite;
    }
    assert.equal(lines.length, 1);
    assert.ok(!lines[0]!.includes(secret));
    assert.match(lines[0]!, /the key is \[redacted\]/);
  });
});
