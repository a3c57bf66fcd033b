// What to say when a legacy Streamable HTTP server answers a POST with something that is not MCP:
// the status, and when the URL is likely not the MCP endpoint (a 404 or 405 before any session, or
// an HTML page), the likely fix. The body is the server's and may be anything: an HTML page is
// never repeated, other text only as one short line.

/** The part of a server's text an error repeats. */
export const QUOTED_BODY_CHARS = 200;
/** The part of a status line's reason phrase an error repeats (the server's text too). */
const REASON_CHARS = 60;

export interface HttpRejection {
  url: URL;
  status: number;
  statusMessage?: string | undefined;
  contentType?: string | undefined;
  body: string;
  /** The server gave a session: a 404 then means that session is gone, not a wrong URL. */
  inSession: boolean;
}

export function isHtml(contentType: string | undefined, body: string): boolean {
  return /^\s*text\/html\b/i.test(contentType ?? '') || /^\s*<(!doctype\s+html|html)\b/i.test(body);
}

/** One line for the log and the client: `HTTP 404 Not Found from URL ...` and, for a wrong URL, the fix. */
export function describeHttpRejection(r: HttpRejection): string {
  const reason = oneLine(r.statusMessage ?? '', REASON_CHARS);
  const status = `HTTP ${r.status}${reason ? ` ${reason}` : ''} from POST ${r.url.href}`;
  const html = isHtml(r.contentType, r.body);
  const wrongUrl = html || (!r.inSession && (r.status === 404 || r.status === 405));
  if (!wrongUrl) {
    const text = oneLine(r.body);
    return text ? `${status}: ${text}` : status;
  }
  return `${status}${html ? ' (an HTML page)' : ''}: is ${r.url.href} the MCP endpoint? ${endpointHint(r.url)}`;
}

/** The likely fix for a URL that does not look like a Streamable HTTP endpoint. */
export function endpointHint(url: URL): string {
  const path = url.pathname.replace(/\/+$/, '');
  if (/\/sse$/i.test(path))
    return `A URL ending in /sse is usually an HTTP+SSE server (2024-11-05): give this upstream \`sse: { url: "${url.href}" }\` in a --config file instead of a Streamable HTTP URL, or try ${withPath(url, path.replace(/\/sse$/i, '/mcp'))}.`;
  if (path === '') return `Most servers answer MCP at /mcp: try ${withPath(url, '/mcp')}.`;
  if (/\/mcp$/i.test(path)) return 'Check the path the server prints at start; an HTTP+SSE server (2024-11-05) needs `sse: { url }` in a --config file.';
  return `Check the path the server prints at start (most use /mcp: ${withPath(url, '/mcp')}); an HTTP+SSE server (2024-11-05) needs \`sse: { url }\` in a --config file.`;
}

function withPath(url: URL, path: string): string {
  const u = new URL(url.href);
  u.pathname = path;
  return u.href;
}

function oneLine(text: string, max = QUOTED_BODY_CHARS): string {
  const flat = text.replace(/[\s\p{Cc}]+/gu, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
