// Raw 2026-07-28 HTTP for tests that must see exactly what is on the wire (status codes, error
// codes, requestState), without any client library smoothing it over.

export const PROTOCOL = '2026-07-28';
export type Caps = Record<string, unknown>;

export interface RpcOptions {
  caps?: Caps;
  id?: number | string;
  headers?: Record<string, string>;
  /** Extra `_meta` keys (progressToken, logLevel, ...). */
  meta?: Record<string, unknown>;
  signal?: AbortSignal;
}

export interface RpcReply {
  status: number;
  /** The final JSON-RPC response. */
  body: { jsonrpc: '2.0'; id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };
  /** Notifications that came before it on an SSE stream. */
  notifications: Array<{ method: string; params?: Record<string, unknown> }>;
}

let nextId = 1;

export async function rpc(url: string, method: string, params: Record<string, unknown> = {}, opts: RpcOptions = {}): Promise<RpcReply> {
  const body = {
    jsonrpc: '2.0',
    id: opts.id ?? nextId++,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': PROTOCOL,
        'io.modelcontextprotocol/clientInfo': { name: 'raw-test', version: '1' },
        'io.modelcontextprotocol/clientCapabilities': opts.caps ?? {},
        ...opts.meta,
      },
    },
  };
  const name = typeof params['name'] === 'string' ? params['name'] : typeof params['uri'] === 'string' ? params['uri'] : undefined;
  return post(url, JSON.stringify(body), { ...mcpHeaders(method, name), ...opts.headers }, opts.signal);
}

/** The HTTP headers of a 2026-07-28 request: content types, the revision, `Mcp-Method`, and `Mcp-Name` when there is a name. */
export function mcpHeaders(method: string, name?: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': PROTOCOL,
    'mcp-method': method,
    ...(name ? { 'mcp-name': name } : {}),
  };
}

export async function post(url: string, body: string, headers: Record<string, string>, signal?: AbortSignal): Promise<RpcReply> {
  const res = await fetch(url, { method: 'POST', body, headers, ...(signal ? { signal } : {}) });
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  if (!type.includes('text/event-stream')) {
    return { status: res.status, body: text ? JSON.parse(text) : {}, notifications: [] };
  }
  const messages = parseSse(text);
  const final = messages.filter((m) => 'result' in m || 'error' in m).pop();
  if (!final) throw new Error(`SSE stream ended without a response: ${text}`);
  return { status: res.status, body: final as RpcReply['body'], notifications: messages.filter((m) => 'method' in m) as RpcReply['notifications'] };
}

export function parseSse(text: string): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).trimStart())
      .join('\n');
    if (data) out.push(JSON.parse(data) as Record<string, unknown>);
  }
  return out;
}

/** Asserts an input_required result and returns it typed. */
export function inputRequired(reply: RpcReply): { inputRequests: Record<string, { method: string; params?: Record<string, unknown> }>; requestState: string } {
  const r = reply.body.result;
  if (r?.['resultType'] !== 'input_required') throw new Error(`expected input_required, got ${JSON.stringify(reply.body)}`);
  return r as never;
}

export const ALL_CAPS: Caps = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };

/** Opens a subscriptions/listen stream and collects its messages until closed. */
export async function listen(
  url: string,
  notifications: Record<string, unknown>,
): Promise<{
  messages: Array<Record<string, unknown>>;
  next(pred: (m: Record<string, unknown>) => boolean, ms?: number): Promise<Record<string, unknown>>;
  close(): void;
}> {
  const abort = new AbortController();
  const res = await fetch(url, {
    method: 'POST',
    signal: abort.signal,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': PROTOCOL,
      'mcp-method': 'subscriptions/listen',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 'listen-1',
      method: 'subscriptions/listen',
      params: { notifications, _meta: { 'io.modelcontextprotocol/protocolVersion': PROTOCOL, 'io.modelcontextprotocol/clientCapabilities': {} } },
    }),
  });
  const messages: Array<Record<string, unknown>> = [];
  const waiters = new Set<() => void>();
  void (async () => {
    const decoder = new TextDecoder();
    let buf = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buf += decoder.decode(chunk, { stream: true });
        const events = buf.split(/\r?\n\r?\n/);
        buf = events.pop() ?? '';
        for (const m of parseSse(events.join('\n\n'))) messages.push(m);
        for (const w of waiters) w();
      }
    } catch {
      /* aborted */
    }
  })();
  return {
    messages,
    close: () => abort.abort(),
    next: (pred, ms = 5000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const m = messages.find(pred);
          if (m) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(m);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching listen message in ${ms} ms; got ${JSON.stringify(messages)}`));
        }, ms);
        waiters.add(check);
        check();
      }),
  };
}
