// --log-format, MRTR_LOG_FORMAT and `logFormat:` in the file: the flag wins, then the variable,
// then the file; none of them leaves the choice to the terminal; any other value is refused.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { resolveCli } from '../../src/config/resolve.js';
import type { ProxyConfig } from '../../src/config/types.js';
import { ConfigError } from '../../src/protocol/errors.js';
import { writeConfig } from '../support/config.js';

const KEY = Buffer.alloc(32, 5).toString('base64url');
const CMD = ['--', 'node', 'server.js'];

function run(argv: string[], env: Record<string, string> = {}): ProxyConfig {
  const r = resolveCli(argv, { MRTR_STATE_KEY: KEY, ...env });
  if (r.action !== 'run') assert.fail(r.action);
  return r.config;
}

function refused(argv: string[], pattern: RegExp, env: Record<string, string> = {}): void {
  assert.throws(
    () => run(argv, env),
    (err: unknown) => err instanceof ConfigError && pattern.test(err.message),
  );
}

describe('the log format', () => {
  it('--log-format, else MRTR_LOG_FORMAT, chooses json or pretty; unset, the terminal decides', () => {
    assert.equal(run(CMD).logFormat, undefined);
    assert.equal(run(['--log-format', 'pretty', ...CMD]).logFormat, 'pretty');
    assert.equal(run(['--log-format', 'json', ...CMD], { MRTR_LOG_FORMAT: 'pretty' }).logFormat, 'json');
    assert.equal(run(CMD, { MRTR_LOG_FORMAT: 'pretty' }).logFormat, 'pretty');
    assert.equal(run(CMD, { MRTR_LOG_FORMAT: '' }).logFormat, undefined);
    refused(['--log-format', 'text', ...CMD], /^--log-format: expected json or pretty, got 'text'$/);
    refused(CMD, /^MRTR_LOG_FORMAT: expected json or pretty, got 'JSON'$/, { MRTR_LOG_FORMAT: 'JSON' });
  });

  it('takes logFormat from the file unless MRTR_LOG_FORMAT or --log-format says otherwise', () => {
    const pretty = writeConfig('logFormat: pretty\nupstreams: { a: { http: { url: "http://127.0.0.1:5/mcp" } } }\n');
    assert.equal(run(['--config', pretty]).logFormat, 'pretty');
    assert.equal(run(['--config', pretty], { MRTR_LOG_FORMAT: 'json' }).logFormat, 'json');
    assert.equal(run(['--config', pretty, '--log-format', 'json']).logFormat, 'json');
    refused(['--config', writeConfig('logFormat: text\nupstreams: { a: { http: { url: "http://127.0.0.1:5/mcp" } } }\n')], /: logFormat: /);
  });
});
