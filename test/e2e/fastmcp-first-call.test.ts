// fastmcp for TypeScript (4.20.16) registers a session only after it polled for the client's
// capabilities (every 100 ms) and, for a client declaring roots.listChanged, listed its roots; a
// tool that talks through `server.sessions[0]` fails before that. docs/compatibility.md decides what
// the proxy does about it; this is that decision's evidence, on the first call of a fresh proxy.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { textOfResult, throughProxy } from '../support/compat-features.js';
import { FASTMCP_TS_SERVER, noFastmcpTs, startProxy, type ProxyProcess } from '../support/processes.js';
import { skipOrFail } from '../support/skip.js';

const SERVER = FASTMCP_TS_SERVER;
const SAMPLE = { tool: 'sample', arguments: { prompt: 'hi' } };

describe('fastmcp 4.20.16 (TypeScript): sampling on the first call of a fresh proxy', { skip: skipOrFail('e2e/fastmcp-first-call', noFastmcpTs) }, () => {
  const proxies: ProxyProcess[] = [];
  after(() => Promise.all(proxies.map((p) => p.stop())));
  const fresh = async () => {
    const p = await startProxy(['--', process.execPath, SERVER]);
    proxies.push(p);
    return p;
  };

  it('is answered for a client that declares roots: the proxy waits for fastmcp to list them, right before it registers the session', async () => {
    const r = await throughProxy((await fresh()).url, SAMPLE, { sampling: {}, roots: {} });
    assert.match(textOfResult(r.result), /model said: sampled text/);
  });

  it("may fail for a client that declares no roots, as with fastmcp's own client calling at once (a race); the same session answers once fastmcp registered it", async () => {
    const proxy = await fresh();
    const first = await throughProxy(proxy.url, SAMPLE, { sampling: {} });
    // Which one depends on how long the proxy took to start the child and list its tools.
    assert.match(textOfResult(first.result), /model said: sampled text|Cannot read properties of undefined \(reading 'requestSampling'\)/);
    await new Promise((r) => setTimeout(r, 200));
    const later = await throughProxy(proxy.url, SAMPLE, { sampling: {} });
    assert.match(textOfResult(later.result), /model said: sampled text/);
  });
});
