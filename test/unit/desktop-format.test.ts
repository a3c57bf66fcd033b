// The desktop clients' configuration files mapped to the native configuration: which keys map to
// what, and which are refused with what to write instead.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatOf, fromDesktopFormat } from '../../src/config/desktop-format.js';
import { loadConfigFile } from '../../src/config/file.js';
import { writeConfig } from '../support/config.js';

const map = (raw: Record<string, unknown>) => fromDesktopFormat(raw, formatOf(raw) as 'mcpServers' | 'servers');

describe('desktop configuration format', () => {
  it('is told apart by its top-level keys', () => {
    assert.equal(formatOf({ mcpServers: {} }), 'mcpServers');
    assert.equal(formatOf({ servers: {}, inputs: [] }), 'servers');
    assert.equal(formatOf({ upstreams: {}, mcpServers: {} }), 'native');
    assert.equal(formatOf({ listen: {} }), 'native');
    assert.equal(formatOf(null), 'native');
  });

  it('maps command servers to stdio and url servers by type, transport, transportType or the URL', () => {
    const { value, problems } = map({
      mcpServers: {
        local: { command: 'node', args: ['s.js'], env: { A: '1' }, cwd: 'srv', type: 'stdio' },
        plain: { url: 'http://h/mcp', headers: { 'X-K': 'v' } },
        events: { url: 'http://h/sse' },
        typed: { url: 'http://h/events', type: 'sse' },
        fast: { url: 'http://h/x', transport: 'streamable-http' },
        tbx: { url: 'http://h/y', transportType: 'sse' },
        socket: { url: 'wss://h/ws' },
      },
    });
    assert.deepEqual(problems, []);
    assert.deepEqual(value, {
      upstreams: {
        local: { stdio: { command: 'node', args: ['s.js'], env: { A: '1' }, cwd: 'srv' } },
        plain: { http: { url: 'http://h/mcp' }, headers: { 'X-K': 'v' } },
        events: { sse: { url: 'http://h/sse' } },
        typed: { sse: { url: 'http://h/events' } },
        fast: { http: { url: 'http://h/x' } },
        tbx: { sse: { url: 'http://h/y' } },
        socket: { websocket: { url: 'wss://h/ws' } },
      },
    });
  });

  it('maps disabled, enabled and timeout, takes native top-level keys, and reads where TBXark listens', () => {
    const { value, problems } = map({
      logLevel: 'debug',
      mcpProxy: { addr: '127.0.0.1:9090', type: 'streamable-http' },
      mcpServers: {
        on: { command: 'a', timeout: 60, disabled: false, autoApprove: [] },
        off: { command: 'b', disabled: true },
        off2: { command: 'c', enabled: false },
        off3: { command: 'd', options: { disabled: true } },
      },
    });
    assert.deepEqual(problems, []);
    assert.deepEqual(value, { logLevel: 'debug', listen: { host: '127.0.0.1', port: 9090 }, upstreams: { on: { callTimeout: 60, stdio: { command: 'a' } } } });
  });

  it('refuses what it cannot map, naming the key and what to write instead', () => {
    const { problems } = map({
      inputs: [{ type: 'promptString', id: 'api-key', password: true }],
      mcpProxy: { baseURL: 'https://x', name: 'p', options: { authTokens: ['t'] } },
      servers: {
        a: { command: 'x', alwaysAllow: ['t'], comand: 'y' },
        b: { url: 'http://h', type: 'stdio' },
        c: { command: 'x', type: 'sse' },
        d: { args: [] },
        'e f': { command: 'x' },
        g: { command: 'x', url: 'http://h' },
        h: { url: 'ftp://h/x' },
        i: { url: 'http://h/x', type: 'ws' },
      },
    });
    assert.deepEqual(problems, [
      "inputs: 'api-key' would be prompted for by VS Code, which the proxy cannot do: set an environment variable and write ${NAME} where ${input:ID} is",
      'mcpProxy.baseURL: each server is served at /servers/NAME/mcp; if clients reach the proxy at another address, write resourceUrl: URL/mcp (docs/authentication.md)',
      "mcpProxy.name: clients see each upstream's own name and version: remove it",
      'mcpProxy.options.authTokens: clients authenticate with OAuth here: clientAuth: in the native format (docs/authentication.md)',
      'servers.a.alwaysAllow: the proxy approves nothing itself (every call goes to the server; the client asks its user): remove it, or keep it empty',
      'servers.a.comand: not a key this proxy reads (did you mean command?)',
      'servers.b.type: stdio needs a command; a url server is http, sse or websocket',
      "servers.c.type: 'sse' needs a url; a command server is stdio",
      'servers.d: needs either command (a server the proxy starts) or url (a server it connects to)',
      "servers: 'e f': upstream names are letters, digits, - and _ (used in /servers/NAME/mcp): rename it",
      'servers.g: needs either command (a server the proxy starts) or url (a server it connects to), not both',
      'servers.h.url: an http server needs an http:// or https:// URL',
      'servers.i.url: a websocket server needs a ws:// or wss:// URL',
    ]);
  });

  it('reports only the mapping problems when a server cannot be mapped, each once', () => {
    const path = writeConfig(JSON.stringify({ mcpServers: { a: { url: 'ftp://h/x' } } }));
    assert.throws(
      () => loadConfigFile(path, {}),
      (err: Error) => err.message === `${path}: mcpServers.a.url: an http server needs an http:// or https:// URL`,
    );
  });

  it('loads a Claude Desktop file as a configuration: one server is the default upstream', () => {
    const path = writeConfig(JSON.stringify({ mcpServers: { files: { command: 'npx', args: ['-y', 'srv'], env: { K: '${V}' } } } }));
    const config = loadConfigFile(path, { V: 'value' });
    assert.equal(config.defaultUpstream, 'files');
    assert.deepEqual(config.upstreams[0]!.target, {
      kind: 'stdio',
      command: 'npx',
      args: ['-y', 'srv'],
      env: { K: 'value' },
      cwd: config.upstreams[0]!.target.kind === 'stdio' ? config.upstreams[0]!.target.cwd : '',
    });
  });
});
