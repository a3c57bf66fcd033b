// What a stdio child's environment is resolved to (--env, env: in the file), and where the state
// key may come from (--state-key-file).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { resolveCli } from '../../src/config/resolve.js';
import { ConfigError } from '../../src/protocol/errors.js';
import type { ProxyConfig } from '../../src/config/types.js';
import { writeConfig } from '../support/config.js';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { childEnvironment, defaultEnvironment } from '../../src/upstream/child/child-environment.js';

const KEY = Buffer.alloc(32, 9).toString('base64url');

function config(argv: string[], env: Record<string, string | undefined> = {}): ProxyConfig {
  const r = resolveCli(argv, env);
  if (r.action !== 'run') assert.fail(`expected run, got ${r.action}`);
  return r.config;
}

function childEnvOf(argv: string[], env: Record<string, string | undefined> = {}): Record<string, string> | undefined {
  const target = config(argv, env).upstreams.find((u) => u.name === 'default' || u.name === 'local')!.target;
  assert.equal(target.kind, 'stdio');
  return target.kind === 'stdio' ? target.env : undefined;
}

function refused(argv: string[], pattern: RegExp, env: Record<string, string | undefined> = {}): void {
  assert.throws(
    () => resolveCli(argv, env),
    (err: unknown) => err instanceof ConfigError && pattern.test(err.message),
  );
}

describe('--env', () => {
  it('passes a named variable of the proxy, or sets one', () => {
    assert.deepEqual(childEnvOf(['--env', 'A', '--env', 'B=x=y', '--env', 'C=', '--', 'srv'], { A: 'from-proxy', D: 'not named' }), {
      A: 'from-proxy',
      B: 'x=y',
      C: '',
    });
  });
  it('gives nothing beyond the default without it', () => {
    assert.equal(childEnvOf(['--', 'srv'], { A: 'x' }), undefined);
  });
  it('refuses the state key, an unset variable, a bad name and a network upstream', () => {
    refused(['--env', 'MRTR_STATE_KEY', '--', 'srv'], /--env: MRTR_STATE_KEY holds the proxy's state key/, { MRTR_STATE_KEY: KEY });
    refused(['--env', 'MRTR_STATE_KEY=abc', '--', 'srv'], /never passed to a legacy server/);
    refused(['--env', 'NOPE', '--', 'srv'], /--env NOPE: the proxy's environment has no NOPE/);
    refused(['--env', '1X=2', '--', 'srv'], /'1X' is not an environment variable name/);
    refused(['--env', 'A=1', '--upstream', 'http://127.0.0.1:1/mcp'], /--env: applies to a legacy server the proxy starts over stdio/);
  });
  it('adds to the file env of the default upstream; the file may name variables and not the key variable', () => {
    const path = writeConfig('stateKeyEnv: MY_KEY\nupstreams: { local: { stdio: { command: x, env: { LIT: v, FROM: { env: SRC } } } } }');
    assert.deepEqual(childEnvOf(['--config', path, '--env', 'EXTRA=1'], { SRC: 's', MY_KEY: KEY }), { LIT: 'v', FROM: 's', EXTRA: '1' });
    const leaks = writeConfig('stateKeyEnv: MY_KEY\nupstreams: { local: { stdio: { command: x, env: { K: { env: MY_KEY } } } } }');
    refused(['--config', leaks], /stdio\.env\.K: MY_KEY holds the proxy's state key/, { MY_KEY: KEY });
    const named = writeConfig('upstreams: { local: { stdio: { command: x, env: { MRTR_STATE_KEY: v } } } }');
    refused(['--config', named], /stdio\.env: MRTR_STATE_KEY holds the proxy's state key/);
  });
  it('spawns with the SDK default plus the resolved variables only', () => {
    const env = childEnvironment({ env: { EXTRA: '1' } });
    assert.equal(env['EXTRA'], '1');
    assert.equal(env['PATH'], process.env['PATH']);
    assert.ok(
      Object.keys(env).every((k) => ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'EXTRA'].includes(k)),
      Object.keys(env).join(),
    );
  });
  it("is the v1 SDK's default environment, written out", () => {
    const shellFunction = process.env['TERM'];
    process.env['TERM'] = '() { :; }';
    try {
      assert.deepEqual(defaultEnvironment(), getDefaultEnvironment());
      assert.equal(defaultEnvironment()['TERM'], undefined);
    } finally {
      if (shellFunction === undefined) delete process.env['TERM'];
      else process.env['TERM'] = shellFunction;
    }
  });
});

describe('--state-key-file', () => {
  it('reads the key from a file, trailing newline and all', () => {
    const path = writeConfig(`${KEY}\n`);
    const c = config(['--state-key-file', path, '--', 'srv'], { MRTR_STATE_KEY: Buffer.alloc(32, 1).toString('base64url') });
    assert.deepEqual(Buffer.from(c.stateKey.bytes), Buffer.alloc(32, 9));
    assert.equal(c.stateKey.generated, false);
  });
  it('refuses an unreadable or empty file, a bad key and --state-key with it', () => {
    refused(['--state-key-file', '/nonexistent/key', '--', 'srv'], /--state-key-file: cannot read \/nonexistent\/key: ENOENT/);
    refused(['--state-key-file', writeConfig('\n'), '--', 'srv'], /--state-key-file: empty/);
    refused(['--state-key-file', writeConfig('abc'), '--', 'srv'], /--state-key-file: it decodes to 2 bytes, not 32; expected 32 random bytes/);
    refused(['--state-key-file', writeConfig(KEY), '--state-key', KEY, '--', 'srv'], /either --state-key or --state-key-file/);
  });
});
