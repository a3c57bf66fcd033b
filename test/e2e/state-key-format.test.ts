// A rejected state key says what it looks like and what is expected, never what it is.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolveCli } from '../../src/config/resolve.js';
import { keyProblem, MAKE_A_KEY } from '../../src/config/state-key.js';

const bytes = randomBytes(32);

describe('keyProblem', () => {
  it('accepts 32 bytes of base64url', () => {
    assert.equal(keyProblem(bytes.toString('base64url')), undefined);
  });
  it('recognizes hex, padded or standard base64, and wrong lengths', () => {
    assert.equal(keyProblem(bytes.toString('hex')), 'this looks like hex (64 hex digits)');
    assert.match(keyProblem(bytes.toString('base64'))!, /standard base64/);
    assert.match(keyProblem(randomBytes(16).toString('base64'))!, /standard base64/);
    assert.equal(keyProblem(randomBytes(24).toString('base64url')), 'it decodes to 24 bytes, not 32');
    assert.equal(keyProblem('key with spaces'), 'it has characters base64url does not use');
  });
});

describe('a rejected key', () => {
  it('tells how to make a key, and the command it quotes makes a good one', () => {
    const hex = bytes.toString('hex');
    assert.throws(
      () => resolveCli(['--state-key', hex, '--', 'node', 'x.js'], {}),
      (err: Error) => err.message.includes(MAKE_A_KEY) && err.message.includes('base64url') && !err.message.includes(hex),
    );
    const made = execSync(MAKE_A_KEY.replace(/^node /, `${JSON.stringify(process.execPath)} `), { encoding: 'utf8' }).trim();
    assert.equal(keyProblem(made), undefined);
  });
});
