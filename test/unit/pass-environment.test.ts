// --pass-environment and `passEnvironment: true`: the proxy's whole environment for stdio children,
// never its secrets; and the other upstreams the command line names (--upstream-transport, ws://, --cwd).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { resolveCli } from '../../src/config/resolve.js';
import { writeConfig } from '../support/config.js';

const run = (argv: string[], env: Record<string, string> = {}) => {
  const action = resolveCli(argv, env);
  assert.equal(action.action, 'run');
  return (action as Extract<typeof action, { action: 'run' }>).config;
};
const envOf = (argv: string[], env: Record<string, string>, name = 'default') => {
  const target = run(argv, env).upstreams.find((u) => u.name === name)!.target;
  assert.equal(target.kind, 'stdio');
  return (target as { env?: Record<string, string> }).env;
};

const KEY = Buffer.alloc(32, 3).toString('base64url');

describe('--pass-environment', () => {
  it('passes every variable but the state key and the introspection credentials; --env still wins', () => {
    const env = { A: '1', PATH: '/bin', MRTR_STATE_KEY: KEY, MRTR_AUTH_CLIENT_ID: 'id', MRTR_AUTH_CLIENT_SECRET: 's', B: 'old' };
    assert.deepEqual(envOf(['--pass-environment', '--env', 'B=new', '--', 'srv'], env), { A: '1', PATH: '/bin', B: 'new' });
    assert.equal(envOf(['--', 'srv'], env), undefined);
  });

  it('withholds the variables the file reads headers, client secrets and its state key from', () => {
    const path = writeConfig(`
stateKeyEnv: MY_KEY
upstreams:
  local: { stdio: { command: srv, env: { OWN: x } } }
  remote:
    http: { url: "http://127.0.0.1:1/mcp" }
    headers: { A: { env: HEADER_TOKEN }, B: "Bearer \${INTERPOLATED_TOKEN}" }
    auth: { tokenUrl: "http://127.0.0.1:1/token", clientId: c, clientSecretEnv: CLIENT_SECRET }
`);
    const env = { MY_KEY: KEY, HEADER_TOKEN: 'h', INTERPOLATED_TOKEN: 'i', CLIENT_SECRET: 'c', KEEP: 'k' };
    assert.deepEqual(envOf(['--config', path, '--pass-environment'], env, 'local'), { KEEP: 'k', OWN: 'x' });
  });

  it('is per upstream in the file (passEnvironment: true), with the same secrets withheld', () => {
    const path = writeConfig('upstreams:\n  a: { stdio: { command: srv, passEnvironment: true, env: { OWN: x } } }\n  b: { stdio: { command: srv } }\n');
    const env = { MRTR_STATE_KEY: KEY, KEEP: 'k' };
    assert.deepEqual(envOf(['--config', path], env, 'a'), { KEEP: 'k', OWN: 'x' });
    assert.equal(envOf(['--config', path], env, 'b'), undefined);
  });

  it('is an error without a stdio upstream', () => {
    assert.throws(
      () => run(['--pass-environment', '--upstream', 'http://127.0.0.1:1/mcp']),
      /--pass-environment: applies to legacy servers the proxy starts over stdio/,
    );
  });
});

describe('upstreams from the command line', () => {
  it('--upstream ws:// is WebSocket; --upstream-transport picks sse, http or websocket', () => {
    const kind = (argv: string[]) => run(argv).upstreams[0]!.target.kind;
    assert.equal(kind(['--upstream', 'ws://127.0.0.1:1/ws']), 'websocket');
    assert.equal(kind(['--upstream', 'wss://h/ws', '--upstream-transport', 'ws']), 'websocket');
    assert.equal(kind(['--upstream', 'http://h/sse', '--upstream-transport', 'sse']), 'sse');
    assert.equal(kind(['--upstream', 'http://h/mcp', '--upstream-transport', 'streamable-http']), 'http');
    assert.throws(
      () => run(['--upstream', 'http://h/mcp', '--upstream-transport', 'websocket']),
      /--upstream-transport websocket: needs a ws:\/\/ or wss:\/\/ URL/,
    );
    assert.throws(() => run(['--upstream', 'ws://h/ws', '--upstream-transport', 'sse']), /--upstream-transport sse: needs an http:\/\/ or https:\/\/ URL/);
    assert.throws(() => run(['--upstream', 'http://h/mcp', '--upstream-transport', 'grpc']), /--upstream-transport: expected http/);
    assert.throws(() => run(['--upstream-transport', 'sse', '--', 'srv']), /--upstream-transport: applies to --upstream URL/);
  });

  it("--cwd sets the stdio child's directory", () => {
    assert.deepEqual(run(['--cwd', '/srv/app', '--', 'srv']).upstreams[0]!.target, { kind: 'stdio', command: 'srv', args: [], cwd: '/srv/app' });
    assert.throws(() => run(['--cwd', '/srv', '--upstream', 'http://h/mcp']), /--cwd: applies to the legacy server the proxy starts/);
  });
});
