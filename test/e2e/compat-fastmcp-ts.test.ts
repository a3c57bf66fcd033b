// fastmcp for TypeScript (4.20.16, on the v1 SDK), each feature compared with what the server's
// own legacy client gets (support/feature-suite.ts), over stdio and Streamable HTTP. Its tools
// reach the client through `server.sessions[0]`, which it registers only after it polled for the
// client's capabilities and, for a client declaring roots.listChanged, read the roots: the
// `roots after connect` case is its `session.roots` on the caller's first call.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { freePort } from '../support/ports.js';
import { FASTMCP_TS_SERVER, noFastmcpTs } from '../support/processes.js';
import type { FeatureCase } from '../support/compat-features.js';
import { featureSuite } from '../support/feature-suite.js';
import { skipOrFail } from '../support/skip.js';

const skip = skipOrFail('e2e/compat-fastmcp-ts', noFastmcpTs);

const SERVER = FASTMCP_TS_SERVER;

const CASES: FeatureCase[] = [
  // First: the call that opens the proxy's session reads the roots fastmcp listed after initialize.
  { feature: 'roots after connect', call: { tool: 'roots' }, shows: /file:\/\/\/work\/project/ },
  { feature: 'tools', call: { tool: 'work' }, shows: /done/ },
  { feature: 'elicitation', call: { tool: 'ask' }, shows: /hello Ada/ },
  { feature: 'sampling', call: { tool: 'sample', arguments: { prompt: 'hi' } }, shows: /model said: sampled text/ },
  { feature: 'logs', call: { tool: 'work' }, shows: /done/ },
  { feature: 'progress', call: { tool: 'work' }, shows: /done/ },
  { feature: 'resources', call: { resource: 'notes://greeting' }, shows: /hello from fastmcp/ },
  { feature: 'prompts', call: { prompt: 'review', arguments: { code: 'x = 1' } }, shows: /Please review: x = 1/ },
];

featureSuite({
  name: 'fastmcp 4.20.16 (TypeScript) over stdio: directly and through the proxy',
  skip,
  start: async () => ({ target: { command: process.execPath, args: [SERVER] }, proxyArgs: ['--', process.execPath, SERVER] }),
  cases: CASES,
});

/**
 * Over httpStream fastmcp 4.20.16 never learns its client's capabilities ("could not infer client
 * capabilities after 10 attempts"), so it lists no roots after connect for its own client either:
 * `session.roots` is `[]` on both paths.
 */
const HTTP_CASES = CASES.map((c) => (c.feature === 'roots after connect' ? { ...c, shows: /\[\]/ } : c));

featureSuite({
  name: 'fastmcp 4.20.16 (TypeScript) over Streamable HTTP: directly and through the proxy',
  skip,
  start: async () => {
    const port = await freePort();
    const server = spawn(process.execPath, [SERVER, 'http', String(port)], { stdio: 'ignore' });
    const url = `http://127.0.0.1:${port}/mcp`;
    const stop = async () => {
      if (server.exitCode !== null) return;
      const exited = once(server, 'exit');
      server.kill();
      await exited;
    };
    await waitForHttp(url).catch(async (err: unknown) => {
      await stop();
      throw err;
    });
    return { target: { url }, proxyArgs: ['--upstream', url], stop };
  },
  cases: HTTP_CASES,
});

/** fastmcp prints nothing on start over HTTP: its endpoint answering is the ready signal. */
async function waitForHttp(url: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const ok = await fetch(url, { method: 'GET' }).then(
      () => true,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`fastmcp did not answer at ${url}`);
}
