// A bench-only legacy (2025-11-25) MCP server over Streamable HTTP in plain node:http, cheap enough
// to hold 10,000 sessions with a suspended tool call each. Not an SDK server on purpose: the
// waiting-users case measures the proxy's memory, so the server's per-session cost must be small.
//
// Tools: `echo {text}` answers at once; `ask {rounds}` sends `rounds` form elicitations one after
// another on the call's SSE stream and answers with the names it was given.
//
//   node dist/bench/legacy-lite.js [--port N]   prints `lite listening on http://127.0.0.1:PORT/mcp`
import http from 'node:http';
import type { AddressInfo } from 'node:net';

// biome-ignore lint/suspicious/noExplicitAny: benchmark wire messages are read without validation, for speed.
type Json = Record<string, any>;
interface Session {
  waiting: Map<number, (answer: Json) => void>;
}

const VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];
const TOOLS = [
  { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
  { name: 'ask', inputSchema: { type: 'object', properties: { rounds: { type: 'number' } } } },
];
const sessions = new Map<string, Session>();
let nextSession = 0;
let nextRequest = 0;

const json = (res: http.ServerResponse, status: number, body: Json | undefined, headers: Record<string, string> = {}) => {
  if (body === undefined) res.writeHead(status, headers).end();
  else res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
};

async function ask(session: Session, res: http.ServerResponse, id: unknown, rounds: number): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const names: string[] = [];
  for (let i = 1; i <= rounds; i++) {
    const rid = ++nextRequest;
    const answer = new Promise<Json>((resolve) => session.waiting.set(rid, resolve));
    const request = {
      jsonrpc: '2.0',
      id: rid,
      method: 'elicitation/create',
      params: { message: `Round ${i}: what is your name?`, requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
    };
    res.write(`event: message\ndata: ${JSON.stringify(request)}\n\n`);
    const a = await answer;
    names.push(String(a['result']?.content?.name ?? a['result']?.action ?? 'error'));
  }
  res.end(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: `names: ${names.join(',')}` }] } })}\n\n`);
}

function handle(req: http.IncomingMessage, res: http.ServerResponse, raw: string): void {
  const sid = req.headers['mcp-session-id'];
  if (req.method === 'GET') return json(res, 405, undefined, { allow: 'POST, DELETE' });
  if (req.method === 'DELETE') {
    if (typeof sid === 'string') sessions.delete(sid);
    return json(res, 200, undefined);
  }
  const m = JSON.parse(raw) as Json;
  if (m['method'] === 'initialize') {
    const id = String(++nextSession);
    sessions.set(id, { waiting: new Map() });
    const asked = String(m['params']?.protocolVersion ?? '');
    return json(
      res,
      200,
      {
        jsonrpc: '2.0',
        id: m['id'],
        result: {
          protocolVersion: VERSIONS.includes(asked) ? asked : VERSIONS[0],
          capabilities: { tools: {} },
          serverInfo: { name: 'legacy-lite', version: '1.0.0' },
        },
      },
      { 'mcp-session-id': id },
    );
  }
  const session = typeof sid === 'string' ? sessions.get(sid) : undefined;
  if (!session) return json(res, 404, { jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } });
  if (m['method'] === undefined) {
    // A response to one of our elicitations.
    const w = session.waiting.get(Number(m['id']));
    session.waiting.delete(Number(m['id']));
    w?.(m);
    return json(res, 202, undefined);
  }
  if (m['id'] === undefined) return json(res, 202, undefined); // a notification
  const reply = (result: Json) => json(res, 200, { jsonrpc: '2.0', id: m['id'], result });
  switch (m['method']) {
    case 'ping':
      return reply({});
    case 'tools/list':
      return reply({ tools: TOOLS });
    case 'tools/call': {
      const name = m['params']?.name;
      if (name === 'echo') return reply({ content: [{ type: 'text', text: `echo: ${String(m['params']?.arguments?.text ?? '')}` }] });
      if (name === 'ask') return void ask(session, res, m['id'], Number(m['params']?.arguments?.rounds ?? 1));
      return json(res, 200, { jsonrpc: '2.0', id: m['id'], error: { code: -32602, message: `unknown tool ${String(name)}` } });
    }
    default:
      return json(res, 200, { jsonrpc: '2.0', id: m['id'], error: { code: -32601, message: 'Method not found' } });
  }
}

const server = http.createServer((req, res) => {
  let raw = '';
  req.setEncoding('utf8');
  req.on('data', (d: string) => (raw += d));
  req.on('end', () => {
    try {
      handle(req, res, raw);
    } catch (err) {
      json(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: String(err) } });
    }
  });
});
server.keepAliveTimeout = 60_000;
server.requestTimeout = 0;
const portAt = process.argv.indexOf('--port');
server.listen(portAt === -1 ? 0 : Number(process.argv[portAt + 1]), '127.0.0.1', () => {
  process.stderr.write(`lite listening on http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp\n`);
});
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
