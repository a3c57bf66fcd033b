// The desktop clients' configuration format, read as it is: `mcpServers` (Claude Desktop, Cursor,
// Cline, Windsurf, and the files of sparfenyuk's, TBXark's and FastMCP's proxies) and VS Code's
// `servers`. Pure: a parsed (and interpolated) file becomes the native object file.ts validates,
// one upstream per server under its name. A key with a clear meaning here is mapped; any other is a
// problem naming it and what to write instead, never silently dropped.
import { closest } from './closest.js';

export type FileFormat = 'native' | 'mcpServers' | 'servers';

/** Which format a parsed file is in, by its top-level keys. */
export function formatOf(raw: unknown): FileFormat {
  if (!isObject(raw) || 'upstreams' in raw) return 'native';
  if ('mcpServers' in raw) return 'mcpServers';
  if ('servers' in raw) return 'servers';
  return 'native';
}

export interface Mapped {
  /** The native configuration object. */
  value: Record<string, unknown>;
  /** `field: what is wrong (what to write instead)`, in document order. */
  problems: string[];
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** What `type` (`transport`, `transportType`) may say, by the native transport it means. */
const TRANSPORT_NAMES: Readonly<Record<string, 'stdio' | 'http' | 'sse' | 'websocket'>> = {
  stdio: 'stdio',
  http: 'http',
  'streamable-http': 'http',
  streamableHttp: 'http',
  streamable_http: 'http',
  streamablehttp: 'http',
  sse: 'sse',
  ws: 'websocket',
  websocket: 'websocket',
};

/** Server keys refused, with what to write instead. */
const REFUSED: Readonly<Record<string, string>> = {
  authTokens: 'clients authenticate with OAuth here: clientAuth: in the native format (docs/authentication.md)',
  toolFilter: 'the proxy serves every tool of its upstream: filter in the client, or remove it',
  panicIfInvalid: 'the proxy always refuses a file with an invalid server: remove it',
  logEnabled: 'logging is set for the whole proxy: logLevel: or --log-level',
  oauth: "the proxy's own client credentials for an HTTP upstream are auth: in the native format (docs/configuration.md)",
  auth: "the proxy's own client credentials for an HTTP upstream are auth: in the native format (docs/configuration.md)",
  envFile: "name each variable in env: (values may be $VAR from the proxy's environment)",
};

/** Keys a server may hold, for "did you mean". */
const SERVER_KEYS = [
  'command',
  'args',
  'env',
  'cwd',
  'url',
  'headers',
  'type',
  'transport',
  'transportType',
  'disabled',
  'enabled',
  'timeout',
  'description',
  'autoApprove',
  'alwaysAllow',
  'options',
];

/** Top-level keys of the desktop formats that are not native ones. */
const DESKTOP_TOP = new Set(['mcpServers', 'servers', 'inputs', 'mcpProxy']);

export function fromDesktopFormat(raw: Record<string, unknown>, format: Exclude<FileFormat, 'native'>): Mapped {
  const problems: string[] = [];
  const native: Record<string, unknown> = {};
  // Native top-level keys (listen, logLevel, default, defaults, ...) are taken as they are.
  for (const [key, value] of Object.entries(raw)) if (!DESKTOP_TOP.has(key)) native[key] = value;
  if ('mcpServers' in raw && 'servers' in raw) problems.push('(top level): holds both mcpServers and servers: keep one');
  inputs(raw['inputs'], problems);
  Object.assign(native, proxySection(raw['mcpProxy'], problems));
  const servers = raw[format];
  if (!isObject(servers)) {
    problems.push(`${format}: expected an object of servers by name`);
    return { value: native, problems };
  }
  const upstreams: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(servers)) {
    const where = `${format}.${name}`;
    if (!NAME.test(name)) {
      problems.push(`${format}: '${name}': upstream names are letters, digits, - and _ (used in /servers/NAME/mcp): rename it`);
      continue;
    }
    const upstream = server(entry, where, problems);
    if (upstream !== undefined) upstreams[name] = upstream;
  }
  if (Object.keys(servers).length > 0 && Object.keys(upstreams).length === 0 && problems.length === 0) {
    problems.push(`${format}: every server is disabled`);
  }
  native['upstreams'] = upstreams;
  return { value: native, problems };
}

/** VS Code's inputs are prompted for by the editor; the proxy cannot prompt. */
function inputs(value: unknown, problems: string[]): void {
  if (value === undefined || (Array.isArray(value) && value.length === 0)) return;
  const ids = Array.isArray(value) ? value.map((i) => (isObject(i) && typeof i['id'] === 'string' ? i['id'] : '?')) : [];
  problems.push(
    `inputs: ${ids.length ? ids.map((id) => `'${id}'`).join(', ') : 'these'} would be prompted for by VS Code, which the proxy cannot do: set an environment variable and write \${NAME} where \${input:ID} is`,
  );
}

/** TBXark's `mcpProxy`: where it listens maps; the rest describes that proxy's own front. */
function proxySection(value: unknown, problems: string[]): Record<string, unknown> {
  if (value === undefined) return {};
  if (!isObject(value)) {
    problems.push('mcpProxy: expected an object');
    return {};
  }
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const where = `mcpProxy.${key}`;
    if (key === 'addr') {
      const m = typeof v === 'string' ? /^(.*):(\d{1,5})$/.exec(v) : null;
      if (!m) problems.push(`${where}: expected HOST:PORT or :PORT`);
      else out['listen'] = { ...(m[1] ? { host: m[1] } : {}), port: Number(m[2]) };
    } else if (key === 'type') {
      if (v !== 'streamable-http')
        problems.push(
          `${where}: the proxy serves Streamable HTTP only (2026-07-28, and legacy clients on the same endpoint): write streamable-http or remove it`,
        );
    } else if (key === 'baseURL') {
      problems.push(
        `${where}: each server is served at /servers/NAME/mcp; if clients reach the proxy at another address, write resourceUrl: URL/mcp (docs/authentication.md)`,
      );
    } else if (key === 'name' || key === 'version') {
      problems.push(`${where}: clients see each upstream's own name and version: remove it`);
    } else if (key === 'options') {
      if (!isObject(v)) problems.push(`${where}: expected an object`);
      else
        for (const [o, ov] of Object.entries(v)) {
          if (o === 'disabled') problems.push(`${where}.disabled: write disabled: true on each server to leave it out`);
          else optionProblem(o, ov, `${where}.${o}`, problems);
        }
    } else {
      problems.push(`${where}: not a setting of this proxy${hint(key, ['addr', 'type', 'baseURL', 'name', 'version', 'options'])}`);
    }
  }
  return out;
}

/** One server entry as a native upstream; undefined when it is disabled or too broken to map. */
function server(entry: unknown, where: string, problems: string[]): Record<string, unknown> | undefined {
  if (!isObject(entry)) {
    problems.push(`${where}: expected an object (command and args, or url)`);
    return undefined;
  }
  if (entry['disabled'] === true || entry['enabled'] === false) return undefined;
  if (isObject(entry['options']) && entry['options']['disabled'] === true) return undefined;
  const before = problems.length;
  const named = [entry['type'], entry['transport'], entry['transportType']].filter((t) => t !== undefined);
  const kind = transportOf(entry, named, where, problems);
  const upstream: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entry)) {
    const at = `${where}.${key}`;
    switch (key) {
      case 'command':
      case 'cwd':
        if (typeof value !== 'string' || value === '') problems.push(`${at}: expected a non-empty string`);
        break;
      case 'args':
        if (!Array.isArray(value) || value.some((a) => typeof a !== 'string')) problems.push(`${at}: expected a list of strings`);
        break;
      case 'env':
      case 'headers':
        if (!isObject(value) || Object.values(value).some((a) => typeof a !== 'string')) problems.push(`${at}: expected an object of strings`);
        break;
      case 'url':
        if (typeof value !== 'string') problems.push(`${at}: expected a URL`);
        break;
      case 'type':
      case 'transport':
      case 'transportType':
      case 'description':
        break;
      case 'disabled':
      case 'enabled':
        if (typeof value !== 'boolean') problems.push(`${at}: expected true or false`);
        break;
      case 'timeout':
        // Seconds, as Cline and sparfenyuk's and FastMCP's proxies read it: how long a call may run.
        if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) problems.push(`${at}: expected whole seconds (it becomes callTimeout)`);
        else upstream['callTimeout'] = value;
        break;
      case 'autoApprove':
      case 'alwaysAllow':
        if (!Array.isArray(value) || value.length > 0) {
          problems.push(`${at}: the proxy approves nothing itself (every call goes to the server; the client asks its user): remove it, or keep it empty`);
        }
        break;
      case 'options':
        if (isObject(value)) for (const [o, ov] of Object.entries(value)) optionProblem(o, ov, `${at}.${o}`, problems);
        else problems.push(`${at}: expected an object`);
        break;
      default:
        problems.push(`${at}: ${REFUSED[key] ?? `not a key this proxy reads${hint(key, SERVER_KEYS)}`}`);
    }
  }
  if (problems.length > before || kind === undefined) return undefined;
  if (kind === 'stdio') {
    for (const k of ['url', 'headers'] as const)
      if (entry[k] !== undefined) problems.push(`${where}.${k}: only applies to a url server; this one has a command`);
    upstream['stdio'] = {
      command: entry['command'],
      ...(entry['args'] === undefined ? {} : { args: entry['args'] }),
      ...(entry['env'] === undefined ? {} : { env: entry['env'] }),
      ...(entry['cwd'] === undefined ? {} : { cwd: entry['cwd'] }),
    };
  } else {
    for (const k of ['args', 'env', 'cwd'] as const)
      if (entry[k] !== undefined) problems.push(`${where}.${k}: only applies to a command server; this one has a url`);
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(String(entry['url']))?.[1]?.toLowerCase();
    const schemes = kind === 'websocket' ? ['ws', 'wss'] : ['http', 'https'];
    if (scheme === undefined || !schemes.includes(scheme)) {
      problems.push(
        `${where}.url: ${kind === 'websocket' ? 'a websocket server needs a ws:// or wss://' : `${kind === 'sse' ? 'an sse' : 'an http'} server needs an http:// or https://`} URL`,
      );
    }
    upstream[kind] = { url: entry['url'] };
    if (entry['headers'] !== undefined) upstream['headers'] = entry['headers'];
  }
  return upstream;
}

/** stdio for a command; for a url, what `type` says, else ws(s):// is WebSocket, a path ending in /sse is SSE, anything else Streamable HTTP. */
function transportOf(entry: Record<string, unknown>, named: unknown[], where: string, problems: string[]): 'stdio' | 'http' | 'sse' | 'websocket' | undefined {
  const hasCommand = entry['command'] !== undefined;
  const hasUrl = entry['url'] !== undefined;
  if (hasCommand === hasUrl) {
    problems.push(`${where}: needs either command (a server the proxy starts) or url (a server it connects to)${hasCommand ? ', not both' : ''}`);
    return undefined;
  }
  const kinds = named.map((t) => (typeof t === 'string' ? TRANSPORT_NAMES[t] : undefined));
  if (kinds.some((k) => k === undefined)) {
    problems.push(`${where}.type: expected stdio, http (or streamable-http), sse or websocket, got ${named.map((t) => JSON.stringify(t)).join(' and ')}`);
    return undefined;
  }
  if (new Set(kinds).size > 1) {
    problems.push(`${where}.type: type, transport and transportType disagree`);
    return undefined;
  }
  const kind = kinds[0];
  if (hasCommand) {
    if (kind !== undefined && kind !== 'stdio') problems.push(`${where}.type: '${String(named[0])}' needs a url; a command server is stdio`);
    return 'stdio';
  }
  if (kind === 'stdio') {
    problems.push(`${where}.type: stdio needs a command; a url server is http, sse or websocket`);
    return undefined;
  }
  if (kind !== undefined) return kind;
  const url = String(entry['url']);
  if (/^wss?:/i.test(url)) return 'websocket';
  return /\/sse\/?(\?.*)?$/.test(url) ? 'sse' : 'http';
}

/** TBXark's per-server (and default) `options`: `disabled` is mapped where the server is read; the rest are refused. */
function optionProblem(key: string, value: unknown, where: string, problems: string[]): void {
  if (key === 'disabled') {
    if (typeof value !== 'boolean') problems.push(`${where}: expected true or false`);
    return;
  }
  problems.push(`${where}: ${REFUSED[key] ?? `not an option this proxy reads${hint(key, ['disabled', ...Object.keys(REFUSED)])}`}`);
}

function hint(key: string, known: readonly string[]): string {
  const near = closest(key, known);
  return near === undefined ? '' : ` (did you mean ${near}?)`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
