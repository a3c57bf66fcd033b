// The proxy's Streamable HTTP client transport (src/upstream/transport/streamable-http-transport.ts) against
// real v1 SDK servers in each way they answer: JSON instead of SSE (such a server cannot send a
// request inside a call: the v1 SDK drops it, so only plain calls are checked there), a call stream closed mid-call
// and resumed with Last-Event-ID, a server that dies mid-call, redirects, and DELETE at the end.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectClient, textOf } from '../support/client.js';
import { startHttpFixture, startProxy, type ProxyProcess, type Running } from '../support/processes.js';
import { rpc } from '../support/rpc.js';
import { until } from '../support/wait.js';
import { connectionsTo } from '../support/descriptors.js';
import { HttpAgents } from '../../src/upstream/transport/http-exchange.js';
import { StreamableHttpTransport } from '../../src/upstream/transport/streamable-http-transport.js';

describe('legacy Streamable HTTP upstream transport', () => {
  describe('a server that answers calls with JSON', () => {
    let upstream: Running & { url: string };
    let proxy: ProxyProcess;
    before(async () => {
      upstream = await startHttpFixture({}, ['--json-response']);
      proxy = await startProxy(['--upstream', upstream.url]);
    });
    after(async () => {
      await proxy?.stop();
      await upstream?.stop();
    });

    it('relays plain calls', async () => {
      const r = await rpc(proxy.url, 'tools/call', { name: 'echo', arguments: { text: 'json' } });
      assert.equal(textOf(r.body.result), 'echo: json');
    });

    it("lists tools and answers unknown tools with the server's error", async () => {
      const tools = await rpc(proxy.url, 'tools/list');
      assert.ok((tools.body.result as { tools: Array<{ name: string }> }).tools.some((t) => t.name === 'echo'));
      const r = await rpc(proxy.url, 'tools/call', { name: 'no-such-tool', arguments: {} });
      assert.ok(r.body.error ?? (r.body.result as { isError?: boolean }).isError, JSON.stringify(r.body));
    });
  });

  describe('a resumable server', () => {
    let upstream: Running & { url: string };
    let proxy: ProxyProcess;
    before(async () => {
      upstream = await startHttpFixture({}, ['--resumable']);
      proxy = await startProxy(['--upstream', upstream.url]);
    });
    after(async () => {
      await proxy?.stop();
      await upstream?.stop();
    });

    it('resumes a call stream the server closed, with Last-Event-ID, and gets the answer', async () => {
      const r = await rpc(proxy.url, 'tools/call', { name: 'poll', arguments: { ms: 300 } });
      assert.equal(textOf(r.body.result), 'answered after closing the stream');
    });

    it('still bridges elicitation', async () => {
      const client = await connectClient(proxy.url);
      try {
        assert.equal(textOf(await client.callTool({ name: 'ask-name', arguments: {} })), 'Hello, Ada!');
      } finally {
        await client.close();
      }
    });
  });

  it('fails a call at once, not at a timeout, when the server dies mid-call', async () => {
    const upstream = await startHttpFixture();
    const proxy = await startProxy(['--upstream', upstream.url]);
    try {
      const started = Date.now();
      const r = await rpc(proxy.url, 'tools/call', { name: 'crash', arguments: {} });
      assert.equal(r.body.error?.code, -32603, JSON.stringify(r.body));
      assert.match(r.body.error!.message, /closed the response stream without answering|session ended/);
      assert.deepEqual(r.body.error!.data, { reason: 'legacy_session_lost', action: 'resend' });
      assert.ok(Date.now() - started < 3000, `took ${Date.now() - started} ms`);
    } finally {
      await proxy.stop();
      await upstream.stop();
    }
  });

  describe('the transport on its own', () => {
    let upstream: Running & { url: string };
    let front: http.Server;
    let frontUrl: string;
    before(async () => {
      upstream = await startHttpFixture();
      // In front of the fixture: /old redirects (307) to /mcp on the same origin, /elsewhere to the
      // fixture's own origin; /drop answers tools/call with an empty event stream.
      const target = new URL(upstream.url);
      front = http.createServer((req, res) => {
        if (req.url === '/old') return void res.writeHead(307, { location: '/mcp' }).end();
        if (req.url === '/elsewhere') return void res.writeHead(307, { location: upstream.url }).end();
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const body = Buffer.concat(chunks);
          // /drop: a tools/call gets an event stream that ends without an answer.
          if (req.url === '/drop' && body.includes('"tools/call"')) return void res.writeHead(200, { 'content-type': 'text/event-stream' }).end();
          const up = http.request({ host: target.hostname, port: target.port, path: target.pathname, method: req.method, headers: req.headers }, (r) => {
            res.writeHead(r.statusCode ?? 502, r.headers);
            r.pipe(res);
          });
          up.end(body);
        });
      });
      await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
      frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
    });
    after(async () => {
      front?.closeAllConnections();
      await new Promise((r) => front?.close(r));
      await upstream?.stop();
    });

    const agents = new HttpAgents();
    after(() => agents.close());
    const connect = async (url: string, headers: Record<string, string> = {}) => {
      const transport = new StreamableHttpTransport(new URL(url), agents, async () => headers);
      const client = new Client({ name: 'transport-test', version: '1' }, { capabilities: {} });
      await client.connect(transport);
      return { client, transport };
    };

    it('keeps the session and announces the negotiated revision and configured headers', async () => {
      const { client, transport } = await connect(upstream.url, { 'x-upstream-key': 'k1' });
      try {
        assert.ok(transport.sessionId);
        assert.equal(transport.protocolVersion, '2025-11-25');
        const seen = JSON.parse(textOf(await client.callTool({ name: 'headers', arguments: {} }))) as Record<string, string>;
        assert.equal(seen['mcp-session-id'], transport.sessionId);
        assert.equal(seen['mcp-protocol-version'], '2025-11-25');
        assert.equal(seen['x-upstream-key'], 'k1');
      } finally {
        await client.close();
      }
    });

    it('ends the session with DELETE; the server then refuses it with 404', async () => {
      const { client, transport } = await connect(upstream.url);
      try {
        const sid = transport.sessionId!;
        await transport.terminateSession();
        assert.equal(transport.sessionId, undefined);
        await until(() => upstream.stderr().includes(`fixture session closed ${sid}`), 3000, 'the fixture to close the session');
        // A request without the session is refused by the server: the error names the status.
        await assert.rejects(client.callTool({ name: 'echo', arguments: { text: 'x' } }), /404|Session not found/);
      } finally {
        await client.close();
      }
    });

    it('follows a same-origin 307 and refuses one to another origin', async () => {
      const { client } = await connect(`${frontUrl}/old`);
      try {
        assert.equal(textOf(await client.callTool({ name: 'echo', arguments: { text: 'moved' } })), 'echo: moved');
      } finally {
        await client.close();
      }
      await assert.rejects(connect(`${frontUrl}/elsewhere`), /Streamable HTTP error: HTTP 307 Temporary Redirect from POST http:\/\/[^ ]*\/elsewhere/);
    });

    it('fails a request at once when its event stream ends without an answer and cannot be resumed', async () => {
      const { client } = await connect(`${frontUrl}/drop`);
      try {
        const started = Date.now();
        await assert.rejects(client.callTool({ name: 'echo', arguments: { text: 'x' } }), /closed the response stream without answering/);
        assert.ok(Date.now() - started < 2000);
      } finally {
        await client.close();
      }
    });

    it('stops resuming a stream for a request the client has given up on', async () => {
      // A server that primes every stream and closes it, and never answers tools/call.
      let resumes = 0;
      const polling = http.createServer((req, res) => {
        if (req.method === 'GET') {
          if (!req.headers['last-event-id']) return void res.writeHead(405).end();
          resumes++;
          return void res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`id: r${resumes}\nretry: 20\ndata: \n\n`);
        }
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const m = JSON.parse(Buffer.concat(chunks).toString()) as { id?: number; method: string };
          if (m.method === 'initialize') {
            const result = { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'polling', version: '1' } };
            return void res
              .writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 's1' })
              .end(JSON.stringify({ jsonrpc: '2.0', id: m.id, result }));
          }
          if (m.id === undefined) return void res.writeHead(202).end();
          res.writeHead(200, { 'content-type': 'text/event-stream' }).end('id: p1\nretry: 20\ndata: \n\n');
        });
      });
      await new Promise<void>((resolve) => polling.listen(0, '127.0.0.1', resolve));
      const { client } = await connect(`http://127.0.0.1:${(polling.address() as AddressInfo).port}/mcp`);
      try {
        await assert.rejects(client.callTool({ name: 'never', arguments: {} }, undefined, { timeout: 300 }), /timed out/i);
        assert.ok(resumes > 1, `the stream was resumed (${resumes} times)`);
        await new Promise((r) => setTimeout(r, 100));
        const after = resumes;
        await new Promise((r) => setTimeout(r, 300));
        assert.equal(resumes, after, 'no resumption after the request was cancelled');
      } finally {
        await client.close();
        polling.closeAllConnections();
        await new Promise((r) => polling.close(r));
      }
    });

    it('closes the response stream of a request it cancelled, which a v1 SDK server never answers', async () => {
      const { client } = await connect(upstream.url);
      const port = Number(new URL(upstream.url).port);
      try {
        await new Promise((r) => setTimeout(r, 200));
        const before = await connectionsTo(process.pid, port);
        for (let i = 0; i < 5; i++) {
          const abort = new AbortController();
          const call = client.callTool({ name: 'hang', arguments: {} }, undefined, { signal: abort.signal });
          await new Promise((r) => setTimeout(r, 100)); // the call reaches the server
          abort.abort('gone');
          await assert.rejects(call);
        }
        // Without the close, each cancelled call keeps its connection for the session's life.
        await until(async () => (await connectionsTo(process.pid, port)) <= before, 3000, `connections back to ${before}`);
        assert.equal(textOf(await client.callTool({ name: 'echo', arguments: { text: 'still' } })), 'echo: still');
      } finally {
        await client.close();
      }
    });

    it('rejects a send after close, and closes once', async () => {
      const { client, transport } = await connect(upstream.url);
      let closes = 0;
      const prev = transport.onclose;
      transport.onclose = () => {
        closes++;
        prev?.();
      };
      await client.close();
      await transport.close();
      assert.equal(closes, 1);
      await assert.rejects(transport.send({ jsonrpc: '2.0', id: 99, method: 'ping' }), /closed/);
    });
  });
});
