// Which era an upstream speaks, for `era: auto`, following the 2026-07-28 backward-compatibility
// rules: send a modern request first; a DiscoverResult or a recognized modern error means modern,
// anything else (another error, silence, a legacy 4xx) means legacy. A stdio server is probed in a
// throw-away process, because some legacy stdio servers exit on any request before initialize.
import type { UpstreamTarget } from '../config/types.js';
import { MODERN_ONLY_CODES } from '../protocol/errors.js';
import { CLIENT_INFO } from '../version.js';
import { headerSourceFor } from './client-credentials.js';
import { signalChild } from './child/child-process.js';
import type { UpstreamResources } from './resources.js';
import { LineReader } from './transport/line-reader.js';

export type Era = 'modern' | 'legacy';

export async function probeEra(target: UpstreamTarget, timeoutMs: number, resources: UpstreamResources): Promise<Era> {
  switch (target.kind) {
    case 'http':
      return headerSourceFor(target, resources.tokens)()
        .then((headers) => discover(target.url, headers, timeoutMs))
        .catch(() => 'legacy' as const);
    case 'stdio':
      return probeStdio(target, timeoutMs, resources);
    default:
      // HTTP+SSE and WebSocket exist only in legacy revisions.
      return 'legacy';
  }
}

/** The probe request: a `server/discover` with the minimal 2026-07-28 envelope. */
export const DISCOVER = {
  jsonrpc: '2.0',
  id: 'mrtr-proxy-probe',
  method: 'server/discover',
  params: {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { ...CLIENT_INFO },
    },
  },
};

function isModernReply(m: { result?: unknown; error?: { code?: number } } | undefined): boolean {
  const supported = (m?.result as { supportedVersions?: unknown } | undefined)?.supportedVersions;
  if (Array.isArray(supported) && supported.includes('2026-07-28')) return true;
  const code = m?.error?.code;
  return code !== undefined && MODERN_ONLY_CODES.has(code);
}

/**
 * The 2026-07-28 HTTP probe (streamable-http.mdx, Backward Compatibility): a modern request;
 * a DiscoverResult or a recognized modern error means modern, anything else legacy.
 */
export async function discover(url: URL, headers: Record<string, string>, timeoutMs: number): Promise<'modern' | 'legacy'> {
  const res = await fetch(url, {
    method: 'POST',
    signal: AbortSignal.timeout(timeoutMs),
    headers: {
      ...headers,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'server/discover',
    },
    body: JSON.stringify(DISCOVER),
  });
  const text = await res.text();
  const body = parseResponse(text, res.headers.get('content-type') ?? '');
  return isModernReply(body) ? 'modern' : 'legacy';
}

function parseResponse(text: string, type: string): { result?: unknown; error?: { code?: number } } | undefined {
  try {
    if (!type.includes('text/event-stream')) return JSON.parse(text);
    const data = text
      .split(/\r?\n/)
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).trim());
    for (const d of data.reverse()) {
      const m = JSON.parse(d) as { result?: unknown; error?: { code?: number } };
      if ('result' in m || 'error' in m) return m;
    }
  } catch {
    return undefined;
  }
  return undefined;
}

function probeStdio(target: Extract<UpstreamTarget, { kind: 'stdio' }>, timeoutMs: number, resources: UpstreamResources): Promise<Era> {
  return new Promise((resolve) => {
    const child = resources.children.spawn(target, ['pipe', 'pipe', 'ignore']);
    const done = (era: Era) => {
      clearTimeout(timer);
      signalChild(child, 'SIGTERM');
      resolve(era);
    };
    const timer = setTimeout(() => done('legacy'), timeoutMs);
    child.once('error', () => done('legacy'));
    child.once('exit', () => done('legacy'));
    // Framed within the size of one message: a line past it is no answer (and is not kept).
    const reader = new LineReader();
    child.stdout!.on('data', (chunk: Buffer) => {
      let lines: string[];
      try {
        lines = reader.push(chunk);
      } catch {
        return done('legacy');
      }
      for (const line of lines) {
        try {
          const m = JSON.parse(line) as { id?: unknown; result?: unknown; error?: { code?: number } };
          if (m.id === DISCOVER.id) return done(isModernReply(m) ? 'modern' : 'legacy');
        } catch {
          /* not JSON: not a modern server */
        }
      }
    });
    child.stdin!.on('error', () => {});
    child.stdin!.write(`${JSON.stringify(DISCOVER)}\n`);
  });
}
