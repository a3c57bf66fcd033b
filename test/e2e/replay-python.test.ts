// Replay in front of a Python mcp 1.x server (FastMCP), over stdio and Streamable HTTP: a run let
// go has its question answered before its call is cancelled, so the server never logs a response to
// a request it forgot ("Received response with an unknown request ID") nor sends the client the
// "Internal Server Error" line it logs for one; the call completes with nothing at error level.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { textOf } from '../support/client.js';
import { startProxy, type ProxyProcess, type Running } from '../support/processes.js';
import { PY_FIXTURES, pythonOf, startPythonHttp } from '../support/python.js';
import { inputRequired, rpc } from '../support/rpc.js';
import { sleep } from '../support/wait.js';

const python = pythonOf('mcp1', 'e2e/replay-python');
const SERVER = `${PY_FIXTURES}mcp1_server.py`;
const CAPS = { elicitation: { form: {} } };
const META = { 'io.modelcontextprotocol/logLevel': 'debug' };

function suite(kind: 'stdio' | 'http'): void {
  describe(`replay in front of mcp 1.29 over ${kind}`, { skip: python === undefined && 'no mcp1 stack (SKIPPED line above)' }, () => {
    let upstream: (Running & { url: string }) | undefined;
    let proxy: ProxyProcess;
    const replay = ['--suspend', 'replay', '--log-level', 'debug'];
    before(async () => {
      if (kind === 'http') upstream = await startPythonHttp(python!, 'mcp1_server.py');
      proxy = await startProxy(upstream ? [...replay, '--upstream', upstream.url] : [...replay, '--', python!, SERVER]);
    });
    after(async () => {
      await proxy?.stop();
      await upstream?.stop();
    });

    it('answers a let-go run before cancelling it: no unknown request id, no error line for the client', async () => {
      const ask = (extra: Record<string, unknown> = {}) =>
        rpc(proxy.url, 'tools/call', { name: 'ask_name', arguments: {}, ...extra }, { caps: CAPS, meta: META });
      const replies = [];
      for (const name of ['Ada', 'Grace']) {
        const first = await ask();
        const r1 = inputRequired(first);
        // The let-go run's cancellation reaches the server while the user thinks.
        await sleep(500);
        const done = await ask({ requestState: r1.requestState, inputResponses: { 'elicitation-1': { action: 'accept', content: { name } } } });
        assert.equal(textOf(done.body.result), `hello ${name}`);
        replies.push(first, done);
      }
      await sleep(500);
      const serverLog = upstream ? upstream.stderr() : proxy.stderr();
      assert.doesNotMatch(serverLog, /unknown request ID/);
      const errors = replies.flatMap((r) => r.notifications).filter((n) => n.method === 'notifications/message' && n.params?.['level'] === 'error');
      assert.deepEqual(errors, []);
    });
  });
}

suite('stdio');
suite('http');
