// An --upstream URL that is not the server's Streamable HTTP endpoint (the server's root, or the
// /sse of an HTTP+SSE server) stops the proxy with the status and the likely fix, never the page
// the server answered with.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { FIXTURE, PROXY_BIN, type Running, startProcess } from '../support/processes.js';

/** Runs the proxy in front of `url` until it exits; its exit code and stderr. */
function proxyAgainst(url: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [PROXY_BIN, '--port', '0', '--upstream', url], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => p.kill('SIGKILL'), 20_000);
    p.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe('an --upstream URL that is not the MCP endpoint', () => {
  let site: Server;
  let siteUrl: string;
  let sse: Running;
  before(async () => {
    // A web server as express builds them: any path it does not serve is an HTML "Cannot POST" page.
    const app = express();
    app.get('/sse', (_req, res) => void res.status(200).type('text/event-stream').end());
    site = app.listen(0, '127.0.0.1');
    await new Promise((r) => site.once('listening', r));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    sse = await startProcess(process.execPath, [FIXTURE, '--sse', '0'], /fixture listening on (http:\/\/\S+)/);
  });
  after(() => {
    site.close();
    sse.stop();
  });

  it('answering an HTML 404: exits 1 with the status and /mcp to try, without the page', async () => {
    const r = await proxyAgainst(`${siteUrl}/`);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, new RegExp(`HTTP 404 Not Found from POST ${siteUrl}/ \\(an HTML page\\): is ${siteUrl}/ the MCP endpoint\\? .*try ${siteUrl}/mcp`));
    assert.doesNotMatch(r.stderr, /DOCTYPE|<html|Cannot POST/);
  });

  it("at an HTTP+SSE server's /sse: exits 1 naming the sse transport of the configuration file", async () => {
    for (const url of [`${siteUrl}/sse`, sse.ready]) {
      const r = await proxyAgainst(url);
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, new RegExp(`HTTP 404 Not Found from POST ${url}.*: is ${url} the MCP endpoint\\?`), r.stderr);
      assert.ok(r.stderr.includes(`\`sse: { url: \\"${url}\\" }\` in a --config file`), r.stderr);
      assert.doesNotMatch(r.stderr, /DOCTYPE|<html|Cannot POST|Session not found/);
    }
  });
});
