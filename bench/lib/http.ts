// The benchmark's wire clients. All raw HTTP clients share one style: node:http with a keep-alive
// agent (cheaper per request than fetch/undici, so the load generator steals less CPU from the
// servers on a 2-core machine). Legacy clients speak 2025-11-25 Streamable HTTP; the proxy client
// speaks 2026-07-28 (the `_meta` envelope and Mcp-* headers, as test/support/rpc.ts does).
import http from 'node:http';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export const agent = new http.Agent({ keepAlive: true, maxSockets: 1024, maxFreeSockets: 1024 });

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

export function post(url: URL, body: string, headers: Record<string, string>): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

// biome-ignore lint/suspicious/noExplicitAny: benchmark wire messages are read without validation, for speed.
export type Json = Record<string, any>;

/** The JSON-RPC response in a JSON or SSE body (the last message that has an id and a result or error). */
export function responseOf(r: Reply): Json {
  const type = String(r.headers['content-type'] ?? '');
  if (!type.includes('text/event-stream')) return JSON.parse(r.text) as Json;
  let last: Json | undefined;
  for (const line of r.text.split('\n')) {
    if (!line.startsWith('data:')) continue;
    const m = JSON.parse(line.slice(5)) as Json;
    if ('result' in m || 'error' in m) last = m;
  }
  if (!last) throw new Error(`no JSON-RPC response in SSE body: ${r.text.slice(0, 200)}`);
  return last;
}

export const NEW_PROTOCOL = '2026-07-28';
export const LEGACY_PROTOCOL = '2025-11-25';
export const ALL_CAPS = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };

let seq = 0;

/** 2026-07-28 raw client for mrtr-proxy: stateless, every request carries its envelope. */
export class ProxyClient {
  readonly url: URL;
  constructor(
    url: string,
    private readonly caps: Json = {},
  ) {
    this.url = new URL(url);
  }

  async call(method: string, params: Json, extra: Json = {}): Promise<{ reply: Reply; body: Json }> {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: ++seq,
      method,
      params: {
        ...params,
        ...extra,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': NEW_PROTOCOL,
          'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': this.caps,
        },
      },
    });
    const name = typeof params['name'] === 'string' ? params['name'] : undefined;
    const reply = await post(this.url, body, {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': NEW_PROTOCOL,
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
    });
    return { reply, body: responseOf(reply) };
  }

  async tool(name: string, args: Json, extra: Json = {}): Promise<Json> {
    const { body } = await this.call('tools/call', { name, arguments: args }, extra);
    if (body['error']) throw new Error(`tools/call ${name}: ${JSON.stringify(body['error'])}`);
    return body['result'] as Json;
  }
}

/** 2025-11-25 raw client with its own legacy session (initialize, then Mcp-Session-Id on every POST). */
export class LegacyHttpClient {
  readonly url: URL;
  private session = '';
  constructor(url: string) {
    this.url = new URL(url);
  }

  private headers(): Record<string, string> {
    return {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(this.session ? { 'mcp-session-id': this.session, 'mcp-protocol-version': LEGACY_PROTOCOL } : {}),
    };
  }

  async init(caps: Json = {}): Promise<this> {
    const r = await post(
      this.url,
      JSON.stringify({
        jsonrpc: '2.0',
        id: ++seq,
        method: 'initialize',
        params: { protocolVersion: LEGACY_PROTOCOL, capabilities: caps, clientInfo: { name: 'bench', version: '1' } },
      }),
      this.headers(),
    );
    const body = responseOf(r);
    if (!body['result']) throw new Error(`initialize failed: ${r.text}`);
    this.session = String(r.headers['mcp-session-id'] ?? '');
    await post(this.url, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), this.headers());
    return this;
  }

  async tool(name: string, args: Json): Promise<Json> {
    return this.request('tools/call', { name, arguments: args });
  }

  async request(method: string, params: Json = {}): Promise<Json> {
    const r = await post(this.url, JSON.stringify({ jsonrpc: '2.0', id: ++seq, method, params }), this.headers());
    const body = responseOf(r);
    if (body['error']) throw new Error(`${method}: ${JSON.stringify(body['error'])}`);
    return body['result'] as Json;
  }
}

/** 2025-11-25 over a stdio child with raw JSON lines: the floor for talking to a stdio server. */
export class RawStdioClient {
  private readonly child: ChildProcess;
  private readonly waiting = new Map<number, (m: Json) => void>();
  private constructor(command: string, args: string[]) {
    this.child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    createInterface({ input: this.child.stdout! }).on('line', (line) => {
      const m = JSON.parse(line) as Json;
      if (typeof m['id'] === 'number' && !('method' in m)) {
        const w = this.waiting.get(m['id']);
        this.waiting.delete(m['id']);
        w?.(m);
      }
    });
  }

  static async start(command: string, args: string[]): Promise<RawStdioClient> {
    const c = new RawStdioClient(command, args);
    await c.request('initialize', { protocolVersion: LEGACY_PROTOCOL, capabilities: {}, clientInfo: { name: 'bench', version: '1' } });
    c.child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    return c;
  }

  request(method: string, params: Json): Promise<Json> {
    const id = ++seq;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, (m) => (m['error'] ? reject(new Error(JSON.stringify(m['error']))) : resolve(m['result'] as Json)));
      this.child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  }

  tool(name: string, args: Json): Promise<Json> {
    return this.request('tools/call', { name, arguments: args });
  }

  close(): void {
    this.child.stdin!.end();
    this.child.kill('SIGTERM');
  }
}

/**
 * 2026-07-28 over stdio to a proxy it launches with `--stdio` (as a desktop client launches it):
 * one JSON line per request with the `_meta` envelope, no initialize, any number in flight.
 */
export class ProxyStdioClient {
  private readonly child: ChildProcess;
  private readonly waiting = new Map<number, (m: Json) => void>();
  constructor(
    command: string,
    args: string[],
    env: NodeJS.ProcessEnv,
    private readonly caps: Json = {},
  ) {
    this.child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'], env: { ...process.env, ...env } });
    createInterface({ input: this.child.stdout! }).on('line', (line) => {
      const m = JSON.parse(line) as Json;
      if (typeof m['id'] !== 'number' || 'method' in m) return;
      const w = this.waiting.get(m['id']);
      this.waiting.delete(m['id']);
      w?.(m);
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  async tool(name: string, args: Json, extra: Json = {}): Promise<Json> {
    const id = ++seq;
    const meta = {
      'io.modelcontextprotocol/protocolVersion': NEW_PROTOCOL,
      'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': this.caps,
    };
    const reply = await new Promise<Json>((resolve) => {
      this.waiting.set(id, resolve);
      this.child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, ...extra, _meta: meta } })}\n`);
    });
    if (reply['error']) throw new Error(`tools/call ${name}: ${JSON.stringify(reply['error'])}`);
    return reply['result'] as Json;
  }

  /** Ends the proxy as its client does: stdin closes. */
  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.child.exitCode !== null) return resolve();
      this.child.once('exit', () => resolve());
      this.child.stdin!.end();
    });
  }
}
