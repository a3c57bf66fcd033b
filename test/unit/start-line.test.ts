// The one start-up line at info: where the proxy serves, what it is in front of (without what
// could hold a secret), and the other addresses the operator asked for.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeTarget, startLine } from '../../src/app/start-line.js';
import { resolveCli } from '../../src/config/resolve.js';
import type { ProxyConfig } from '../../src/config/types.js';
import { writeConfig } from '../support/config.js';

const KEY = Buffer.alloc(32, 3).toString('base64url');
/** A directory with dist/examples/demo-server.js in it, for a stdio command's script to exist. */
const home = mkdtempSync(join(tmpdir(), 'mrtr-start-line-'));
mkdirSync(join(home, 'dist/examples'), { recursive: true });
const DEMO = join(home, 'dist/examples/demo-server.js');
writeFileSync(DEMO, '');

function config(argv: string[]): ProxyConfig {
  const r = resolveCli(argv, { MRTR_STATE_KEY: KEY });
  if (r.action !== 'run') assert.fail(r.action);
  return r.config;
}

describe('the start line', () => {
  it('says where it listens and what it fronts; the URL is followed by a space', () => {
    const c = config(['--', '/usr/bin/node', '--no-warnings', DEMO, '--verbose']);
    const line = startLine(c, { url: 'http://127.0.0.1:8080/mcp' });
    assert.equal(line, 'listening on http://127.0.0.1:8080/mcp in front of node demo-server.js over stdio');
    assert.equal(/listening on (\S+)/.exec(line)?.[1], 'http://127.0.0.1:8080/mcp');
  });

  it('adds the dashboard and the metrics listener when they are on, and says so on stdio too', () => {
    const c = config(['--upstream', 'http://127.0.0.1:3001/mcp']);
    assert.equal(
      startLine(c, { url: 'http://127.0.0.1:8080/mcp', dashboard: 'http://127.0.0.1:8080/dashboard', metrics: 'http://127.0.0.1:9464/metrics' }),
      'listening on http://127.0.0.1:8080/mcp in front of http://127.0.0.1:3001/mcp; also dashboard at http://127.0.0.1:8080/dashboard and metrics on http://127.0.0.1:9464/metrics',
    );
    assert.equal(
      startLine(c, { metrics: 'http://127.0.0.1:9464/metrics' }),
      'serving 2026-07-28 on stdio in front of http://127.0.0.1:3001/mcp; also metrics on http://127.0.0.1:9464/metrics',
    );
  });

  it('names each upstream of a configuration file', () => {
    const file = writeConfig(`
default: demo
upstreams:
  demo: { stdio: { command: node, args: [dist/examples/demo-server.js], cwd: ${home} } }
  tickets: { sse: { url: "http://user:pw@10.0.0.9:3001/sse?token=abc" } }
`);
    assert.equal(
      startLine(config(['--config', file]), { url: 'http://127.0.0.1:8080/mcp' }),
      'listening on http://127.0.0.1:8080/mcp in front of demo (node demo-server.js over stdio), tickets (http://10.0.0.9:3001/sse over HTTP+SSE)',
    );
  });

  it("names what a legacy upstream's migrated server serves (its cutover)", () => {
    const file = writeConfig(`
default: demo
upstreams:
  demo:
    stdio: { command: node, args: [dist/examples/demo-server.js], cwd: ${home} }
    cutover: { upstream: next, tools: [ask-name, book], resourceTemplates: ["notes://note/{id}"] }
  next: { era: modern, http: { url: "http://127.0.0.1:9000/mcp" } }
`);
    assert.equal(
      startLine(config(['--config', file]), { url: 'http://127.0.0.1:8080/mcp' }),
      'listening on http://127.0.0.1:8080/mcp in front of demo (node demo-server.js over stdio; cut over to next: tools ask-name, book; resource templates notes://note/{id}), next (http://127.0.0.1:9000/mcp)',
    );
  });

  it("names each upstream's own endpoint when there is no default upstream (/mcp answers 404 then)", () => {
    const file = writeConfig(`
upstreams:
  demo: { stdio: { command: node, args: [dist/examples/demo-server.js], cwd: ${home} } }
  tickets: { sse: { url: "http://user:pw@10.0.0.9:3001/sse?token=abc" } }
`);
    const line = startLine(config(['--config', file]), { url: 'http://127.0.0.1:8080/mcp' });
    assert.equal(
      line,
      'listening on http://127.0.0.1:8080/servers/demo/mcp in front of node demo-server.js over stdio, http://127.0.0.1:8080/servers/tickets/mcp in front of http://10.0.0.9:3001/sse over HTTP+SSE',
    );
    assert.equal(/listening on (\S+)/.exec(line)?.[1], 'http://127.0.0.1:8080/servers/demo/mcp');
  });

  it('shows a stdio command and the script it runs, never its other arguments', () => {
    const stdio = (command: string, args: string[], cwd?: string) => describeTarget({ kind: 'stdio', command, args, ...(cwd ? { cwd } : {}) });
    assert.equal(stdio('node', ['dist/examples/demo-server.js', '--token', 'sekret'], home), 'node demo-server.js over stdio');
    assert.equal(stdio('my-server', ['--token', 'sekret/with/slashes']), 'my-server over stdio');
    assert.equal(stdio('npx', ['-y', '@modelcontextprotocol/server-filesystem', home]), 'npx over stdio', 'a directory is not a script');
    assert.equal(stdio('python3', []), 'python3 over stdio');
    assert.equal(describeTarget({ kind: 'websocket', url: new URL('ws://h:1/mcp?key=k'), headers: {} }), 'ws://h:1/mcp');
    assert.equal(describeTarget({ kind: 'http', url: new URL('https://a:b@h/mcp#x'), headers: {} }), 'https://h/mcp');
  });
});
