// One HTTP exchange with a legacy server on node:http(s): keep-alive connections shared by every
// legacy session of a proxy instance (as fetch's global pool shares them), the request written in one piece,
// same-origin redirects followed the way the v1 SDK follows them.
// The v1 SDK's own transport goes through fetch and WHATWG streams, which costs more CPU per call
// than the rest of the proxy's pass-through work (docs/performance.md).
import http from 'node:http';
import https from 'node:https';
import { isWithinOrigin } from '@modelcontextprotocol/sdk/shared/transport.js';

const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const AGENT_OPTIONS = { keepAlive: true, maxFreeSockets: 64 };

/** One proxy instance's keep-alive connections to its HTTP upstreams, shared by all their sessions. */
export class HttpAgents {
  readonly http = new http.Agent(AGENT_OPTIONS);
  readonly https = new https.Agent(AGENT_OPTIONS);

  close(): void {
    this.http.destroy();
    this.https.destroy();
  }
}

/** The exchanges of one transport, so that closing it aborts them and nothing else. */
export class HttpExchanger {
  private readonly live = new Set<http.ClientRequest>();

  constructor(private readonly agents: HttpAgents) {}

  /** Sends one request and resolves when the response headers arrive. */
  async send(url: URL, method: string, headers: Record<string, string>, body?: string): Promise<http.IncomingMessage> {
    let target = url;
    for (let followed = 0; ; followed++) {
      const response = await this.once(target, method, headers, body);
      const next = redirectTarget(response, target, method, followed);
      if (!next) return response;
      response.resume();
      target = next;
    }
  }

  /** Aborts every exchange of this transport still in flight (a GET stream, an unanswered POST). */
  close(): void {
    for (const req of this.live) req.destroy();
    this.live.clear();
  }

  private once(url: URL, method: string, headers: Record<string, string>, body?: string): Promise<http.IncomingMessage> {
    const [lib, agent] = url.protocol === 'https:' ? [https, this.agents.https] : [http, this.agents.http];
    // The body goes as bytes: node then writes the request head on its own and flattens it, where
    // a string body is appended to it and the head stays in memory as a rope of ~25 pieces for as
    // long as the exchange lives (a held call's POST stream lives as long as its user thinks).
    const payload = body === undefined ? undefined : Buffer.from(body);
    const head = rawHeaders(url, headers, payload?.length);
    const req = lib.request(url, { method, headers: head, agent });
    // Node has written the request head from the list by now; the agent's copy of the options
    // (kept by its socket listeners for the connection's life) would keep the list: empty it.
    head.length = 0;
    this.live.add(req);
    const response = this.response(req);
    req.end(payload);
    return response;
  }

  /**
   * The response to `req`. Its own function: the listeners live as long as the exchange, and
   * closures made in `once` would keep the body and the headers (context variables) as long.
   */
  private response(req: http.ClientRequest): Promise<http.IncomingMessage> {
    return new Promise((resolve, reject) => {
      req.once('close', () => this.live.delete(req));
      // Errors after the response started are the response's to report (its 'close' without
      // `complete`); a late one here must not go unhandled.
      req.on('error', reject);
      req.once('response', (response) => {
        response.on('error', () => {});
        resolve(response);
      });
    });
  }
}

/**
 * The request's headers as a flat name/value list: node then writes them as given instead of
 * keeping a table of them on the request for as long as the exchange lives. In that form node adds
 * neither Host nor the URL's userinfo as Basic authorization, so they are added here.
 */
export function rawHeaders(url: URL, headers: Record<string, string>, contentLength: number | undefined): string[] {
  const out = ['host', url.host];
  if ((url.username || url.password) && !Object.keys(headers).some((k) => k.toLowerCase() === 'authorization'))
    out.push('authorization', `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`);
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() !== 'host') out.push(k, v);
  if (contentLength !== undefined) out.push('content-length', String(contentLength));
  return out;
}

function redirectTarget(res: http.IncomingMessage, from: URL, method: string, followed: number): URL | undefined {
  const status = res.statusCode ?? 0;
  const location = res.headers.location;
  if (!REDIRECTS.has(status) || !location || followed === MAX_REDIRECTS) return undefined;
  // 301, 302 and 303 turn a request with a body into a GET; only 307 and 308 keep a POST a POST.
  if (method !== 'GET' && status !== 307 && status !== 308) return undefined;
  let target: URL;
  try {
    target = new URL(location, from);
  } catch {
    return undefined;
  }
  const addsUserinfo = (target.username || target.password) && (target.username !== from.username || target.password !== from.password);
  return addsUserinfo || !isWithinOrigin(from, target) ? undefined : target;
}

/** The whole body of a response as text. */
export function readText(res: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (text += chunk));
    res.once('end', () => resolve(text));
    res.once('error', reject);
  });
}

/** At most the first `maxBytes` of a response as text; the rest is not read (the response is destroyed). */
export function readTextPrefix(res: http.IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    const done = () => resolve(Buffer.concat(chunks).toString('utf8'));
    res.on('data', (chunk: Buffer) => {
      chunks.push(chunk.subarray(0, maxBytes - bytes));
      bytes += chunk.length;
      if (bytes < maxBytes) return;
      res.destroy();
      done();
    });
    res.once('end', done);
    res.once('error', reject);
  });
}
