// The one line the proxy logs at info once it has started: where it serves and what it is in
// front of, plus the addresses the operator asked for (dashboard, metrics). Every other start-up
// line is at debug. Each URL in it is followed by a space or ends it, so `listening on (\S+)`
// finds the endpoint.
//
// Upstreams are described without what could hold a secret: a stdio command shows its program
// and the script it runs (the first argument that names a file), never its other arguments (a
// `${VAR}` in the file may put a token there); a URL loses its credentials and query.
import { statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { ProxyConfig, UpstreamConfig, UpstreamTarget } from '../config/types.js';

export interface StartAddresses {
  /** The HTTP endpoint; undefined when the proxy serves on stdio. */
  url?: string;
  dashboard?: string;
  metrics?: string;
}

export function startLine(config: ProxyConfig, at: StartAddresses): string {
  const also = [...(at.dashboard ? [`dashboard at ${at.dashboard}`] : []), ...(at.metrics ? [`metrics on ${at.metrics}`] : [])];
  return `${where(config, at.url)}${also.length > 0 ? `; also ${also.join(' and ')}` : ''}`;
}

/**
 * Where each upstream is served. Without a `default:` upstream /mcp answers 404, so each one's
 * own endpoint is named instead (the first is still what `listening on (\S+)` finds).
 */
function where(config: ProxyConfig, url: string | undefined): string {
  if (url === undefined) return `serving 2026-07-28 on stdio in front of ${describeUpstreams(config)}`;
  if (config.defaultUpstream !== undefined) return `listening on ${url} in front of ${describeUpstreams(config)}`;
  const base = url.replace(/\/mcp$/, '');
  return `listening on ${config.upstreams.map((u) => `${base}/servers/${u.name}/mcp in front of ${describeTarget(u.target)}${describeCutover(u)}`).join(', ')}`;
}

export function describeUpstreams(config: ProxyConfig): string {
  const [only, ...more] = config.upstreams;
  // The command line's upstream has no name of its own.
  if (only?.name === 'default' && more.length === 0) return describeTarget(only.target);
  return config.upstreams.map((u) => `${u.name} (${describeTarget(u.target)}${describeCutover(u)})`).join(', ');
}

/** What a legacy upstream serves from its migrated server: `; cut over to NAME: tools a, b; prompts p`. */
export function describeCutover(u: UpstreamConfig): string {
  if (!u.cutover) return '';
  const c = u.cutover;
  const kinds = [
    ['tools', c.tools],
    ['prompts', c.prompts],
    ['resources', c.resources],
    ['resource templates', c.resourceTemplates],
  ] as const;
  const parts = kinds.filter(([, items]) => items.length > 0).map(([label, items]) => `${label} ${items.join(', ')}`);
  return `; cut over to ${c.upstream}: ${parts.join('; ')}`;
}

export function describeTarget(target: UpstreamTarget): string {
  switch (target.kind) {
    case 'stdio': {
      const script = target.args.find((a) => isFile(resolve(target.cwd ?? '.', a)));
      const program = basename(target.command);
      return `${script === undefined ? program : `${program} ${basename(script)}`} over stdio`;
    }
    case 'http':
      return bareUrl(target.url);
    case 'sse':
      return `${bareUrl(target.url)} over HTTP+SSE`;
    case 'websocket':
      return bareUrl(target.url);
  }
}

function isFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
}

function bareUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}
