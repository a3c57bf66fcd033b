import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfigFile } from '../../src/config/file.js';
import { resolveCli } from '../../src/config/resolve.js';
import { ConfigError } from '../../src/protocol/errors.js';
import { writeConfig } from '../support/config.js';

const KEY = Buffer.alloc(32, 4).toString('base64url');
const CMD = ['--', 'node', 'server.js'];

function upstreamsOf(argv: readonly string[]) {
  const r = resolveCli([...argv], { MRTR_STATE_KEY: KEY });
  if (r.action !== 'run') assert.fail(`expected run, got ${r.action}`);
  return r.config.upstreams;
}

describe('--session-scope and sessionScope:', () => {
  it('leaves the scope unset (principal) by default and takes shared or principal from the flag', () => {
    assert.equal(upstreamsOf(CMD)[0]!.sessionScope, undefined);
    assert.equal(upstreamsOf(['--session-scope', 'shared', ...CMD])[0]!.sessionScope, 'shared');
    assert.equal(upstreamsOf(['--session-scope', 'principal', ...CMD])[0]!.sessionScope, 'principal');
  });

  it('refuses another value', () => {
    assert.throws(
      () => resolveCli(['--session-scope', 'user', ...CMD], { MRTR_STATE_KEY: KEY }),
      (err: unknown) => {
        assert.ok(err instanceof ConfigError);
        assert.match(err.message, /--session-scope: expected principal or shared, got 'user'/);
        return true;
      },
    );
  });

  it('reads it per upstream from the configuration file, and the flag overrides every upstream', () => {
    const path = writeConfig(`
upstreams:
  a: { stdio: { command: node }, sessionScope: shared }
  b: { stdio: { command: node } }
`);
    const f = loadConfigFile(path, {});
    assert.deepEqual(
      f.upstreams.map((u) => [u.name, u.sessionScope]),
      [
        ['a', 'shared'],
        ['b', undefined],
      ],
    );
    const flagged = upstreamsOf(['--config', path, '--session-scope', 'principal']);
    assert.deepEqual(
      flagged.map((u) => u.sessionScope),
      ['principal', 'principal'],
    );
  });

  it('refuses an unknown scope in the file', () => {
    const path = writeConfig(`
upstreams:
  a: { stdio: { command: node }, sessionScope: per-user }
`);
    assert.throws(() => loadConfigFile(path, {}), /sessionScope/);
  });
});
