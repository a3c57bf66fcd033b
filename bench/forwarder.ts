// The minimal forwarding proxy: plain node:http, no MCP logic. It is the floor a proxy written in
// Node can reach, the baseline mrtr-proxy's pass-through cost is compared with.
//
//   node dist/bench/forwarder.js --target http://127.0.0.1:PORT/mcp
//       HTTP -> HTTP: every request (method, path, headers, body) is streamed to the target byte
//       for byte and the response (status, headers, body, SSE included) streamed back.
//   node dist/bench/forwarder.js --stdio N -- COMMAND ARGS...
//       HTTP -> stdio: N children, each initialized once; a POST takes an idle child (one request
//       in flight per child, as mrtr-proxy's exclusive sessions do), writes the body as one line
//       and answers with the first JSON-RPC response line as application/json.
//
// Prints `forwarder listening on http://127.0.0.1:PORT/mcp` on stderr when ready.
import http from 'node:http';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { AddressInfo } from 'node:net';

const argv = process.argv.slice(2);
const arg = (name: string) => {
  const i = argv.indexOf(name);
  return i === -1 ? undefined : argv[i + 1];
};

function httpForwarder(target: URL): http.RequestListener {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1024 });
  return (req, res) => {
    const up = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers, agent }, (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, upRes.headers);
      upRes.pipe(res);
    });
    up.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(up);
  };
}

interface Child {
  proc: ChildProcess;
  onResponse: ((line: string) => void) | undefined;
}

async function stdioForwarder(n: number, command: string, args: string[]): Promise<http.RequestListener> {
  const idle: Child[] = [];
  const queue: Array<(c: Child) => void> = [];
  const take = () => new Promise<Child>((resolve) => (idle.length ? resolve(idle.pop()!) : queue.push(resolve)));
  const give = (c: Child) => (queue.length ? queue.shift()!(c) : idle.push(c));
  const send = (c: Child, line: string) =>
    new Promise<string>((resolve) => {
      c.onResponse = resolve;
      c.proc.stdin!.write(`${line}\n`);
    });
  const children = await Promise.all(
    Array.from({ length: n }, async () => {
      const proc = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
      const c: Child = { proc, onResponse: undefined };
      createInterface({ input: proc.stdout! }).on('line', (line) => {
        // Notifications have a method and no id; the only thing parsed is whether this is the answer.
        const m = JSON.parse(line) as { id?: unknown; method?: unknown };
        if (m.id !== undefined && m.method === undefined) {
          const r = c.onResponse;
          c.onResponse = undefined;
          r?.(line);
        }
      });
      await send(
        c,
        JSON.stringify({
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'forwarder', version: '1' } },
        }),
      );
      proc.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
      return c;
    }),
  );
  for (const c of children) idle.push(c);
  process.on('exit', () => {
    for (const c of children) c.proc.kill('SIGKILL');
  });
  return (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const c = await take();
      const line = await send(c, body);
      give(c);
      res.writeHead(200, { 'content-type': 'application/json' }).end(line);
    });
  };
}

async function main(): Promise<void> {
  const target = arg('--target');
  const stdio = arg('--stdio');
  let listener: http.RequestListener;
  if (target) listener = httpForwarder(new URL(target));
  else if (stdio) {
    const dash = argv.indexOf('--');
    listener = await stdioForwarder(Number(stdio), argv[dash + 1]!, argv.slice(dash + 2));
  } else throw new Error('usage: forwarder --target URL | --stdio N -- COMMAND ARGS');
  const server = http.createServer({ keepAlive: true }, listener);
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => {
    process.stderr.write(`forwarder listening on http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp\n`);
  });
  const stop = () => process.exit(0);
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err) => {
  process.stderr.write(`forwarder failed: ${String(err)}\n`);
  process.exit(1);
});
