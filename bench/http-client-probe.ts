// The upstream HTTP client on its own: CPU per POST exchange of the client process, node:http with
// a keep-alive agent (what upstream/transport/http-exchange.ts uses) against undici's Pool, each
// posting the same JSON-RPC request to the same plain node:http server in a child process and
// reading the whole JSON answer. Variants alternate within each round, so a slow moment on the
// machine hits both. Not part of `npm run bench`; run it by hand when weighing the client:
//
//   npm run build && node dist/bench/http-client-probe.js [--seconds S] [--rounds R] [--concurrency C]
//
// undici comes with the dev dependencies (the conformance suite's); the proxy does not depend on it.
import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { median } from './lib/stats.js';

const argv = process.argv.slice(2);
const opt = (name: string, def: string) => {
  const i = argv.indexOf(name);
  return i === -1 ? def : argv[i + 1]!;
};

const REQUEST = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'echo', arguments: { text: 'hello' }, _meta: { progressToken: 1 } },
});
const ANSWER = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'echo: hello' }] } });
const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-session-id': '0123456789abcdef0123456789abcdef',
  'mcp-protocol-version': '2025-11-25',
};

/** The server child: answers every POST with one JSON body. */
function serve(): void {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(ANSWER) }).end(ANSWER));
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => process.send!((server.address() as { port: number }).port));
}

type Exchange = () => Promise<string>;

function nodeHttp(url: URL): { exchange: Exchange; close(): void } {
  const agent = new http.Agent({ keepAlive: true, maxFreeSockets: 64 });
  const exchange = () =>
    new Promise<string>((resolve, reject) => {
      const payload = Buffer.from(REQUEST);
      const req = http.request(url, { method: 'POST', headers: { ...HEADERS, 'content-length': String(payload.length) }, agent });
      req.on('error', reject);
      req.once('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        res.on('error', reject);
      });
      req.end(payload);
    });
  return { exchange, close: () => agent.destroy() };
}

function undiciPool(url: URL): { exchange: Exchange; close(): void } {
  const pool = new Pool(url.origin, { connections: 64 });
  const exchange = async () => {
    const { body } = await pool.request({ path: url.pathname, method: 'POST', headers: HEADERS, body: REQUEST });
    return body.text();
  };
  return { exchange, close: () => void pool.close() };
}

/** `concurrency` loops, each one exchange in flight, for `ms`: exchanges done and client CPU (µs) used. */
async function load(exchange: Exchange, concurrency: number, ms: number): Promise<{ done: number; cpuUs: number }> {
  const until = Date.now() + ms;
  let done = 0;
  const start = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < until) {
        const text = await exchange();
        if (text.length !== ANSWER.length) throw new Error(`unexpected answer: ${text}`);
        done++;
      }
    }),
  );
  const used = process.cpuUsage(start);
  return { done, cpuUs: used.user + used.system };
}

async function main(): Promise<void> {
  const seconds = Number(opt('--seconds', '5'));
  const rounds = Number(opt('--rounds', '5'));
  const concurrency = Number(opt('--concurrency', '1'));
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--serve'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const port = await new Promise<number>((resolve) => child.once('message', (m) => resolve(Number(m))));
    const url = new URL(`http://127.0.0.1:${port}/mcp`);
    const variants = { 'node:http': nodeHttp(url), 'undici Pool': undiciPool(url) };
    const perCall: Record<string, number[]> = { 'node:http': [], 'undici Pool': [] };
    const rate: Record<string, number[]> = { 'node:http': [], 'undici Pool': [] };
    for (const v of Object.values(variants)) await load(v.exchange, concurrency, 1000); // warm-up
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 === 0 ? Object.keys(variants) : Object.keys(variants).reverse();
      for (const name of order) {
        const { done, cpuUs } = await load(variants[name as keyof typeof variants].exchange, concurrency, seconds * 1000);
        perCall[name]!.push(cpuUs / done);
        rate[name]!.push(done / seconds);
        console.log(`round ${r + 1} ${name}: ${(cpuUs / done).toFixed(1)} µs CPU per exchange, ${(done / seconds).toFixed(0)} exchanges/s`);
      }
    }
    for (const v of Object.values(variants)) v.close();
    console.log(`\nconcurrency ${concurrency}, median of ${rounds} rounds of ${seconds} s:`);
    for (const name of Object.keys(variants)) {
      console.log(`  ${name.padEnd(12)} ${median(perCall[name]!).toFixed(1)} µs CPU per exchange, ${median(rate[name]!).toFixed(0)} exchanges/s`);
    }
  } finally {
    child.kill();
  }
}

if (process.argv.includes('--serve')) serve();
else await main();
