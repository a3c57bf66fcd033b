// Every way an interaction ends releases what it held upstream, on every upstream transport: the
// proxy's descriptors, its connections to the legacy server and its legacy children are counted
// (Linux /proc) before and after each way, run ten times over, and must not grow. A leak of one
// connection, descriptor or child per call adds ten; the slack allowed is what pools keep: the
// keep-alive connections that were busy at one moment. Nothing counted depends on how fast the
// machine runs the calls: the pool may hold one legacy session, started before anything is
// counted, so calls that happen to overlap cannot add sessions; the /proc files the proxy keeps
// while it reads its children are counted apart, and must all be closed at rest. The ways of a
// transport run one after the other, the transports side by side.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeConfig } from '../support/config.js';
import { connectionsTo, descriptorKinds, PROC_READABLE } from '../support/descriptors.js';
import { childPids, FIXTURE, startProcess, startProxy, type ProxyProcess, type Running } from '../support/processes.js';
import { inputRequired, rpc } from '../support/rpc.js';
import { sleep } from '../support/wait.js';
import { skipOrFail } from '../support/skip.js';

const TIMES = Number(process.env['MRTR_RELEASE_TIMES'] ?? 10);
/** What may stay open in the pools: keep-alive connections busy at one moment. */
const SLACK = 3;
const SETTLE_MS = 8000;
/**
 * One session: a stdio session is a child and its pipes, more than the slack, and a pool allowed
 * more would start them (or a spare) for calls that happen to overlap on a loaded machine.
 */
const MAX_SESSIONS = 1;
const TTL_S = 2;
const ELICIT = { elicitation: { form: {} } };
const TASKS = { elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/tasks': {} } };

type Transport = 'stdio' | 'streamable-http' | 'http+sse' | 'websocket';
const TRANSPORTS: Transport[] = ['stdio', 'streamable-http', 'http+sse', 'websocket'];

interface Held {
  /** Other than the /proc files. */
  descriptors: number;
  procFiles: number;
  connections: number;
  children: number;
}

/** What the proxy `pid` holds; `port`: the legacy server's (0 for stdio). */
async function heldBy(pid: number, port: number): Promise<Held> {
  const { open, procFiles } = await descriptorKinds(pid);
  return {
    descriptors: open - procFiles,
    procFiles,
    connections: port ? await connectionsTo(pid, port) : 0,
    children: (await childPids(pid)).length,
  };
}

interface Setup {
  proxy: ProxyProcess;
  /** The legacy server's port (0 for stdio). */
  port: number;
  fixture?: Running;
  /** A pass-through call: the pool holds the session it keeps at rest before anything is counted. */
  warm(): Promise<void>;
  held(): Promise<Held>;
  stop(): Promise<void>;
}

/**
 * The proxy in front of the fixture over `transport`, with `ask-name` also a hosted task (ttl TTL_S)
 * and `ask-twice` replayed. Tasks may hold every session (--waiting-share 100). `idle`: session
 * limits of a pool that closes its idle sessions, so that it holds none at rest.
 */
async function setUp(transport: Transport, idle?: string[]): Promise<Setup> {
  let fixture: Running | undefined;
  let port = 0;
  let reach: string;
  if (transport === 'stdio') {
    reach = `    stdio: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(FIXTURE)}] }`;
  } else {
    const flag = transport === 'streamable-http' ? '--http' : transport === 'http+sse' ? '--sse' : '--ws';
    const started = await startProcess(process.execPath, [FIXTURE, flag, '0'], /fixture listening on (\S+)/);
    fixture = started;
    const url = started.ready;
    port = Number(new URL(url).port);
    const key = transport === 'streamable-http' ? 'http' : transport === 'http+sse' ? 'sse' : 'websocket';
    reach = `    ${key}: { url: ${JSON.stringify(url)} }`;
  }
  const config = writeConfig(
    ['default: main', 'upstreams:', '  main:', reach, '    suspend: { replay: [ask-twice] }', `    tasks: { tools: [ask-name], ttl: ${TTL_S} }`, ''].join('\n'),
  );
  const limits = idle ?? ['--max-sessions', String(MAX_SESSIONS)];
  const proxy = await startProxy(['--interaction-ttl', String(TTL_S), '--waiting-share', '100', ...limits, '--config', config]).catch(async (err: Error) => {
    await fixture?.stop();
    throw err;
  });
  const pid = proxy.child.pid!;
  return {
    proxy,
    port,
    ...(fixture ? { fixture } : {}),
    warm: async () => {
      if (!idle) assert.match(JSON.stringify((await call(proxy.url, 'echo', { text: 'x' })).body), /echo: x/);
    },
    held: () => heldBy(pid, port),
    async stop() {
      await proxy.stop();
      await fixture?.stop();
    },
  };
}

const call = (url: string, name: string, args: Record<string, unknown> = {}, extra: Record<string, unknown> = {}, caps = ELICIT, signal?: AbortSignal) =>
  rpc(url, 'tools/call', { name, arguments: args, ...extra }, { caps, ...(signal ? { signal } : {}) });

/**
 * Once the pool holds its session, runs `way` TIMES over, waits `thenMs` (for ways that end by a
 * timer), then until what the proxy holds is back within SLACK of before, its /proc files closed.
 */
async function releases(setup: Setup, way: () => Promise<void>, thenMs = 0): Promise<void> {
  await setup.warm();
  const was = await setup.held();
  for (let i = 0; i < TIMES; i++) await way();
  await sleep(thenMs);
  const deadline = Date.now() + SETTLE_MS;
  let now = await setup.held();
  while (Date.now() < deadline) {
    const within = now.descriptors <= was.descriptors + SLACK && now.connections <= was.connections + SLACK && now.children <= was.children + SLACK;
    if (within && now.procFiles === 0) return;
    await sleep(200);
    now = await setup.held();
  }
  assert.fail(`after ${TIMES} times the proxy holds more than before: before ${JSON.stringify(was)}, after ${JSON.stringify(now)}`);
}

const skip = skipOrFail('e2e/upstream-release', !PROC_READABLE && 'it reads what the proxy holds from Linux /proc');

// The transports, and the tests that start a proxy of their own, run side by side, four at a time:
// more proxies starting at once would only queue for the CPU.
describe('what ended interactions held upstream', { concurrency: 4 }, () => {
  for (const transport of TRANSPORTS) {
    describe(`what an ended interaction held upstream is released: ${transport} upstream`, {
      skip,
      concurrency: false,
    }, () => {
      let setup: Setup;
      let url: string;
      before(async () => {
        setup = await setUp(transport);
        url = setup.proxy.url;
        // Warm up: the sessions and connections a steady proxy keeps, before anything is counted.
        assert.match(JSON.stringify((await call(url, 'echo', { text: 'x' })).body), /echo: x/);
        const { requestState } = inputRequired(await call(url, 'ask-name'));
        await call(url, 'ask-name', {}, { requestState, inputResponses: { 'elicitation-1': { action: 'accept', content: { name: 'A' } } } });
      });
      after(async () => {
        await setup?.stop();
      });

      it('answered', async () => {
        await releases(setup, async () => {
          const { requestState } = inputRequired(await call(url, 'ask-name'));
          const done = await call(url, 'ask-name', {}, { requestState, inputResponses: { 'elicitation-1': { action: 'accept', content: { name: 'Ada' } } } });
          assert.match(JSON.stringify(done.body), /Hello, Ada!/);
        });
      });

      it('declined', async () => {
        await releases(setup, async () => {
          const { requestState } = inputRequired(await call(url, 'ask-name'));
          const done = await call(url, 'ask-name', {}, { requestState, inputResponses: { 'elicitation-1': { action: 'decline' } } });
          assert.match(JSON.stringify(done.body), /no name \(decline\)/);
        });
      });

      it('expired: left unanswered past --interaction-ttl', async () => {
        await releases(
          setup,
          async () => {
            inputRequired(await call(url, 'ask-name'));
          },
          TTL_S * 1000 + 500,
        );
      });

      it("cancelled by the client: its request's connection closed while the legacy call runs", async () => {
        // `hang` never returns, so the legacy server never answers the cancelled request.
        await releases(setup, async () => {
          const abort = new AbortController();
          const sent = call(url, 'hang', {}, {}, ELICIT, abort.signal).catch((err: Error) => err);
          await sleep(150);
          abort.abort();
          assert.ok((await sent) instanceof Error);
        });
      });

      it('let go for replay, round after round', async () => {
        await releases(setup, async () => {
          const first = inputRequired(await call(url, 'ask-twice'));
          const key = Object.keys(first.inputRequests)[0]!;
          const second = inputRequired(
            await call(url, 'ask-twice', {}, { requestState: first.requestState, inputResponses: { [key]: { action: 'accept', content: { first: 'a' } } } }),
          );
          const key2 = Object.keys(second.inputRequests)[0]!;
          const done = await call(
            url,
            'ask-twice',
            {},
            { requestState: second.requestState, inputResponses: { [key2]: { action: 'accept', content: { second: 'b' } } } },
          );
          assert.match(JSON.stringify(done.body), /first=a second=b/);
        });
      });

      it('a hosted task cancelled while it waits for input', async () => {
        await releases(setup, async () => {
          const created = await call(url, 'ask-name', {}, {}, TASKS);
          const taskId = String(created.body.result?.['taskId']);
          assert.equal(created.body.result?.['resultType'], 'task', JSON.stringify(created.body));
          const cancelled = await rpc(url, 'tasks/cancel', { taskId }, { caps: TASKS, headers: { 'mcp-name': taskId } });
          assert.equal(cancelled.body.error, undefined, JSON.stringify(cancelled.body));
        });
      });
    });
  }

  // Ten tasks hold ten sessions at once, by design: a proxy of their own may start that many, and
  // closes each session idle for a second, so what the tasks held is gone once they end.
  describe('what hosted tasks past their ttl held upstream is released', { skip }, () => {
    for (const transport of TRANSPORTS) {
      it(`${transport} upstream`, async () => {
        const own = await setUp(transport, ['--max-sessions', '16', '--idle-session-ttl', '1']);
        try {
          await releases(
            own,
            async () => {
              const created = await call(own.proxy.url, 'ask-name', {}, {}, TASKS);
              assert.equal(created.body.result?.['resultType'], 'task', JSON.stringify(created.body));
            },
            TTL_S * 1000 + 1500,
          );
        } finally {
          await own.stop();
        }
      });
    }
  });

  describe('what a lost legacy session held is released', { skip }, () => {
    it('a stdio child that exits while it asks is reaped, and its pipes closed', async () => {
      const setup = await setUp('stdio');
      try {
        await releases(setup, async () => {
          const r = await call(setup.proxy.url, 'crash-while-asking');
          if (r.body.result?.['resultType'] === 'input_required') await sleep(500); // the child exits 300 ms after asking
        });
      } finally {
        await setup.stop();
      }
    });

    it('a Streamable HTTP server that goes away while calls wait: every connection to it is closed', async () => {
      const setup = await setUp('streamable-http');
      try {
        const { proxy, port } = setup;
        inputRequired(await call(proxy.url, 'ask-name'));
        inputRequired(await call(proxy.url, 'ask-name'));
        assert.ok((await connectionsTo(proxy.child.pid!, port)) > 0);
        await setup.fixture!.stop('SIGKILL');
        const deadline = Date.now() + SETTLE_MS;
        while ((await connectionsTo(proxy.child.pid!, port)) > 0 && Date.now() < deadline) await sleep(100);
        assert.equal(await connectionsTo(proxy.child.pid!, port), 0, 'connections to the server that went away');
      } finally {
        await setup.stop();
      }
    });
  });

  describe("what a legacy server's own task held is released when the task is cancelled", {
    skip,
  }, () => {
    const TASKS_FIXTURE = FIXTURE.replace(/legacy-server\.js$/, 'tasks-server.js');
    for (const transport of ['stdio', 'streamable-http'] as const) {
      it(`${transport} upstream: a translated task asking a question, cancelled`, async () => {
        let fixture: Running | undefined;
        let upstream: string[];
        let port = 0;
        if (transport === 'stdio') upstream = ['--', process.execPath, TASKS_FIXTURE];
        else {
          fixture = await startProcess(process.execPath, [TASKS_FIXTURE, '--http', '0'], /listening on (http:\/\/\S+)/);
          port = Number(new URL(fixture.ready).port);
          upstream = ['--upstream', fixture.ready];
        }
        const proxy = await startProxy(['--max-sessions', String(MAX_SESSIONS), '--waiting-share', '100', ...upstream]).catch(async (err: Error) => {
          await fixture?.stop();
          throw err;
        });
        const pid = proxy.child.pid!;
        const setup: Setup = {
          proxy,
          port,
          warm: async () => {
            assert.match(JSON.stringify((await call(proxy.url, 'greet', { name: 'x' })).body), /Hello, x!/);
          },
          held: () => heldBy(pid, port),
          stop: async () => {
            await proxy.stop();
            await fixture?.stop();
          },
        };
        try {
          const url = proxy.url;
          const cancelOne = async () => {
            const created = await call(url, 'confirm_delete', { filename: 'a.txt' }, {}, TASKS);
            const taskId = String(created.body.result?.['taskId']);
            assert.equal(created.body.result?.['resultType'], 'task', JSON.stringify(created.body));
            const cancelled = await rpc(url, 'tasks/cancel', { taskId }, { caps: TASKS, headers: { 'mcp-name': taskId } });
            assert.equal(cancelled.body.error, undefined, JSON.stringify(cancelled.body));
          };
          // The first task starts what a task needs (the legacy server's own task store) before anything is counted.
          await cancelOne();
          await releases(setup, cancelOne);
        } finally {
          await setup.stop();
        }
      });
    }
  });
});
