import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpAgents, HttpExchanger, rawHeaders, readText } from '../../src/upstream/transport/http-exchange.js';

describe('legacy HTTP exchange headers', () => {
  it('adds Host, the URL userinfo as Basic authorization and the length, as node did for a header table', () => {
    assert.deepEqual(rawHeaders(new URL('http://u%20x:p%40@127.0.0.1:8080/mcp'), { accept: 'a', Host: 'evil' }, 12), [
      'host',
      '127.0.0.1:8080',
      'authorization',
      `Basic ${Buffer.from('u x:p@').toString('base64')}`,
      'accept',
      'a',
      'content-length',
      '12',
    ]);
    assert.deepEqual(rawHeaders(new URL('http://u:p@[::1]/mcp'), { Authorization: 'Bearer t' }, undefined), ['host', '[::1]', 'Authorization', 'Bearer t']);
  });

  it('sends them on a real request', async (t) => {
    const seen: http.IncomingHttpHeaders[] = [];
    const server = http.createServer((req, res) => {
      seen.push(req.headers);
      req.resume();
      req.on('end', () => res.end('ok'));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    t.after(() => new Promise<void>((r) => server.close(() => r())));
    const { port } = server.address() as AddressInfo;
    const agents = new HttpAgents();
    const exchanger = new HttpExchanger(agents);
    t.after(() => {
      exchanger.close();
      agents.close();
    });
    const response = await exchanger.send(new URL(`http://127.0.0.1:${port}/mcp`), 'POST', { 'content-type': 'application/json' }, '{"é":1}');
    assert.equal(await readText(response), 'ok');
    assert.equal(seen[0]?.host, `127.0.0.1:${port}`);
    assert.equal(seen[0]?.['content-length'], String(Buffer.byteLength('{"é":1}')));
    assert.equal(seen[0]?.['content-type'], 'application/json');
  });
});
