// One principal must not lock the others out with tasks. At the defaults, principal Bob starts 40
// proxy-hosted tasks of a tool that asks and is never answered (each holds a legacy session until its
// ttl); then principal Alice's plain call is answered at once, and she may still start a task of her
// own. Over a stdio upstream (16 sessions by default, 12 of them for tasks and waiting calls, 6 per
// principal's tasks), anonymously (the share alone), and a Streamable HTTP one (256 sessions; Bob stops at 32 tasks, --max-calls-per-principal).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startAuthServer, type AuthServer, type TestClient } from '../support/auth-server.js';
import { textOf } from '../support/client.js';
import { writeConfig } from '../support/config.js';
import { FIXTURE, startHttpFixture, startProxy, type ProxyProcess, type Running } from '../support/processes.js';
import { rpc } from '../support/rpc.js';

const ALICE: TestClient = { clientId: 'alice', clientSecret: 'alice-secret', scope: 'mcp:tools' };
const BOB: TestClient = { clientId: 'bob', clientSecret: 'bob-secret', scope: 'mcp:tools' };
const CAPS = { elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/tasks': {} } };

function probe(kind: 'stdio' | 'http', expected: { tasks: number; limit: string }, anonymous = false) {
  describe(`tasks from one ${anonymous ? 'anonymous caller' : 'principal'} over a ${kind} upstream, at the defaults`, () => {
    let as: AuthServer;
    let fixture: (Running & { url: string }) | undefined;
    let proxy: ProxyProcess;
    before(async () => {
      as = await startAuthServer([ALICE, BOB]);
      let target: string;
      if (kind === 'http') {
        fixture = await startHttpFixture();
        target = `    http: { url: ${JSON.stringify(fixture.url)} }`;
      } else target = `    stdio: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(FIXTURE)}] }`;
      const config = writeConfig(['upstreams:', '  fixture:', target, '    tasks: { tools: [ask-name] }', ''].join('\n'));
      proxy = await startProxy([...(anonymous ? [] : ['--auth-issuer', as.issuer]), '--config', config]);
    });
    after(async () => {
      await proxy?.stop();
      await fixture?.stop();
      await as?.close();
    });

    it("leaves another principal's plain call answered, and a task of its own, after 40 asking tasks", { timeout: 120_000 }, async () => {
      const auth = async (c: TestClient): Promise<Record<string, string>> =>
        anonymous ? {} : { authorization: `Bearer ${(await as.token(c, { resource: proxy.url })).access_token}` };
      const [alice, bob] = [await auth(ALICE), await auth(BOB)];
      const outcomes = new Map<string, number>();
      const started = Date.now();
      // All at once, as an abuser would: none may pass the limits before the others are counted.
      const replies = await Promise.all(
        Array.from({ length: 40 }, () => rpc(proxy.url, 'tools/call', { name: 'ask-name', arguments: {} }, { caps: CAPS, headers: bob })),
      );
      for (const reply of replies) {
        const data = reply.body.error?.data as { reason?: string; limit?: string } | undefined;
        const outcome = reply.body.result?.['resultType'] === 'task' ? 'task' : `${data?.reason}:${data?.limit ?? ''}`;
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      }
      const took = Date.now() - started;
      const seen = JSON.stringify([...outcomes]);
      assert.equal(outcomes.get('task'), expected.tasks, seen);
      assert.equal(outcomes.get(expected.limit), 40 - expected.tasks, seen);
      // Refused at once, never after waiting for a session (--session-wait is 30 s).
      assert.ok(took < 30_000, `40 tasks asked in ${took} ms: ${seen}`);

      const callStarted = Date.now();
      const echo = await rpc(proxy.url, 'tools/call', { name: 'echo', arguments: { text: 'still served' } }, { headers: alice });
      assert.equal(textOf(echo.body.result), 'echo: still served', JSON.stringify(echo.body));
      assert.ok(Date.now() - callStarted < 5000, `answered after ${Date.now() - callStarted} ms`);
      // Anonymous callers are one principal: the share they filled is theirs to wait for.
      const own = await rpc(proxy.url, 'tools/call', { name: 'ask-name', arguments: {} }, { caps: CAPS, headers: alice });
      if (!anonymous) assert.equal(own.body.result?.['resultType'], 'task', JSON.stringify(own.body));
      else assert.equal((own.body.error?.data as { reason?: string } | undefined)?.reason, 'waiting_limit', JSON.stringify(own.body));
      const ready = await fetch(new URL('/readyz', proxy.url));
      assert.equal(ready.status, 200, await ready.text());
    });
  });
}

probe('stdio', { tasks: 6, limit: 'principal_limit:maxTasksPerPrincipal' });
probe('http', { tasks: 32, limit: 'principal_limit:maxTasksPerPrincipal' });
// Without authentication every caller is `anonymous`, which no per-principal limit caps: the
// waiting share (12 of 16 sessions) still keeps the rest for plain calls.
probe('stdio', { tasks: 12, limit: 'waiting_limit:' }, true);
