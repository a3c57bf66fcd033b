// The front door beyond authentication, over real sockets: TLS with a certificate made by the test
// (openssl) and replaced on SIGHUP, CORS for an allowed browser origin, Host/Origin validation
// extended by --allowed-host/--allowed-origin, and the refusal to serve the network without auth.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, renameSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURE, PROXY_BIN, startProxy, type ProxyProcess } from '../support/processes.js';
import { rpc } from '../support/rpc.js';
import { until } from '../support/wait.js';
import { skipOrFail } from '../support/skip.js';

const OPENSSL = spawnSync('openssl', ['version']).status === 0;
const dir = mkdtempSync(join(tmpdir(), 'mrtr-tls-'));

/** A self-signed certificate for 127.0.0.1, written to `name`.crt/.key. */
function makeCert(name: string): { cert: string; key: string } {
  const cert = join(dir, `${name}.crt`);
  const key = join(dir, `${name}.key`);
  const r = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '1',
      '-subj',
      `/CN=${name}`,
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    {
      encoding: 'utf8',
    },
  );
  assert.equal(r.status, 0, r.stderr);
  return { cert, key };
}

/** The certificate the server presents on a fresh connection. */
function presented(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(`${new URL(url).origin}/healthz`, { rejectUnauthorized: false, agent: false }, (res) => {
      const peer = (res.socket as TLSSocket).getPeerX509Certificate();
      res.resume();
      resolve(peer?.subject ?? '');
    });
    req.on('error', reject);
    req.end();
  });
}

/** A raw HTTP request with headers fetch would not let a test set (Host). */
function raw(
  url: string,
  method: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, headers: res.headers });
    });
    req.on('error', reject);
    req.end(method === 'POST' ? '{}' : undefined);
  });
}

describe('TLS', { skip: skipOrFail('e2e/front-door (TLS)', !OPENSSL && 'openssl is not installed, so no certificate can be made for the TLS test') }, () => {
  let proxy: ProxyProcess;
  let files: { cert: string; key: string };
  before(async () => {
    files = makeCert('first');
    proxy = await startProxy(['--tls-cert', files.cert, '--tls-key', files.key, '--', process.execPath, FIXTURE]);
  });
  after(async () => {
    await proxy?.stop();
  });

  it('serves https with the certificate it was given, and says so in its URL', async () => {
    assert.match(proxy.url, /^https:\/\/127\.0\.0\.1:\d+\/mcp$/);
    assert.equal(await presented(proxy.url), 'CN=first');
  });

  it('presents a replaced certificate after SIGHUP, without a restart', async () => {
    const second = makeCert('second');
    renameSync(second.cert, files.cert);
    renameSync(second.key, files.key);
    proxy.child.kill('SIGHUP');
    await until(() => /TLS certificate reloaded/.test(proxy.stderr()), 5000, 'the TLS reload');
    assert.equal(await presented(proxy.url), 'CN=second');
  });
});

describe('CORS and Host/Origin validation', () => {
  let proxy: ProxyProcess;
  const APP = 'https://app.example.com';
  before(async () => {
    proxy = await startProxy([
      '--cors-origin',
      APP,
      '--allowed-host',
      'mcp.example.com',
      '--allowed-origin',
      'https://portal.example.com',
      '--',
      process.execPath,
      FIXTURE,
    ]);
  });
  after(async () => {
    await proxy?.stop();
  });

  it('answers a preflight from an allowed origin with the MCP headers', async () => {
    const r = await raw(proxy.url, 'OPTIONS', {
      origin: APP,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, mcp-method, mcp-param-city',
    });
    assert.equal(r.status, 204);
    assert.equal(r.headers['access-control-allow-origin'], APP);
    const allowed = String(r.headers['access-control-allow-headers']).toLowerCase().split(', ');
    for (const h of ['authorization', 'mcp-protocol-version', 'mcp-method', 'mcp-name', 'mcp-session-id', 'mcp-param-city']) assert.ok(allowed.includes(h), h);
  });

  it('lets the allowed origin read WWW-Authenticate and Mcp-Session-Id', async () => {
    const r = await rpc(proxy.url, 'tools/list', {}, { headers: { origin: APP } });
    assert.equal(r.status, 200);
    const res = await fetch(proxy.url, { method: 'POST', headers: { origin: APP, 'content-type': 'application/json' }, body: '{}' });
    assert.equal(res.headers.get('access-control-expose-headers'), 'WWW-Authenticate, Mcp-Session-Id, Mcp-Protocol-Version');
  });

  it('refuses other origins and hosts, and accepts the ones listed', async () => {
    assert.equal((await raw(proxy.url, 'POST', { origin: 'https://evil.example', 'content-type': 'application/json' })).status, 403);
    assert.equal(
      (await raw(proxy.url, 'OPTIONS', { origin: 'https://evil.example', 'access-control-request-method': 'POST' })).headers['access-control-allow-origin'],
      undefined,
    );
    assert.equal((await raw(proxy.url, 'POST', { host: 'evil.example', 'content-type': 'application/json' })).status, 403);
    const port = new URL(proxy.url).port;
    assert.notEqual((await raw(proxy.url, 'POST', { host: `mcp.example.com:${port}`, 'content-type': 'application/json' })).status, 403);
    assert.notEqual((await raw(proxy.url, 'POST', { origin: 'https://portal.example.com', 'content-type': 'application/json' })).status, 403);
  });
});

describe('network exposure', () => {
  it('refuses to listen beyond loopback without client authentication', () => {
    const r = spawnSync(process.execPath, [PROXY_BIN, '--host', '0.0.0.0', '--port', '0', '--', process.execPath, FIXTURE], {
      encoding: 'utf8',
      timeout: 10_000,
    });
    assert.equal(r.status, 2);
    assert.match(
      r.stderr,
      /--host 0\.0\.0\.0 is not loopback and upstream default has no client authentication: give --auth-issuer \(or clientAuth\), or --insecure-no-auth/,
    );
  });
});
