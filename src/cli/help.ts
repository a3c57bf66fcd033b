// The --help text. The limit rows come from the table in config/limits.ts, the version from
// package.json (version.ts); the other options are written out here.
import * as D from '../config/defaults.js';
import { LIMIT_ROWS, metavarOf, type LimitRow } from '../config/limits.js';
import { VERSION } from '../version.js';

/** Where option descriptions start; continuation lines are indented to it. */
const DESCRIPTION_COLUMN = 28;

/** The widest a --help line may be: a terminal of 100 columns shows every line whole. */
export const HELP_WIDTH = 100;

/** A description's lines, each wrapped at word boundaries to fit after the description column. */
function wrap(description: string): string[] {
  const width = HELP_WIDTH - DESCRIPTION_COLUMN;
  return description.split('\n').flatMap((line) => {
    const out: string[] = [];
    let current = '';
    for (const word of line.split(' ')) {
      if (current !== '' && current.length + 1 + word.length > width) {
        out.push(current);
        current = word;
      } else current = current === '' ? word : `${current} ${word}`;
    }
    return [...out, current];
  });
}

/** One option's rows: `  --flag ARG   description`, wrapped where the description has a newline or is too wide. */
function optionHelp(synopsis: string, description: string): string {
  const [first = '', ...rest] = wrap(description);
  const head = `  ${synopsis}`.padEnd(DESCRIPTION_COLUMN - 1);
  const indent = ' '.repeat(DESCRIPTION_COLUMN);
  // A synopsis too long for the column gets a line of its own.
  const lines = head.length >= DESCRIPTION_COLUMN ? [head.trimEnd(), `${indent}${first}`] : [`${head} ${first}`];
  return [...lines, ...rest.map((line) => `${indent}${line}`)].map((line) => `${line}\n`).join('');
}

export function limitHelp(row: LimitRow): string {
  const byKind = row.stdioDefault === undefined ? '' : ` for an HTTP, SSE or WebSocket upstream, ${row.stdioDefault} for stdio`;
  return optionHelp(`${row.flag} ${metavarOf(row)}`, `${row.help} (default ${row.default}${byKind})`);
}

const LIMIT_HELP = LIMIT_ROWS.map(limitHelp).join('');

export const HELP = `mrtr-proxy ${VERSION}: lets MCP 2026-07-28 clients use legacy (2025-11-25 and older) MCP servers.

Usage:
  mrtr-proxy [options] --upstream http://HOST:PORT/mcp    legacy server over Streamable HTTP
  mrtr-proxy [options] -- COMMAND [ARGS...]               legacy server over stdio, spawned by
                                                          the proxy
  mrtr-proxy [options] --config FILE                      several upstreams from a configuration
                                                          file
  mrtr-proxy --stdio [options] (--upstream URL | -- COMMAND [ARGS...] | --config FILE)
                                                          serve on stdin/stdout (a client
                                                          launches the proxy)
  mrtr-proxy report [--audit FILE...] (--upstream URL | -- COMMAND... | --config FILE)
                    [--format md|html|json] [--out FILE]  what each tool asks and what migrating
                                                          it takes
                    [--handlers DIR --lang ts|py]         the migrated server's handlers
                    [--roots-tools NAME[,NAME...]]        (mrtr-proxy report --help)

The proxy serves 2026-07-28 Streamable HTTP at POST http://HOST:PORT/mcp (with --config, each
upstream at /servers/NAME/mcp), GET /healthz and GET /readyz. Clients that open with a legacy
initialize get a transparent legacy session on the same endpoint (see --legacy-clients).

Options:
  --stdio                   serve 2026-07-28 on stdin/stdout instead of HTTP (logs stay on stderr)
  --legacy-clients MODE     pass: clients that open with initialize are relayed to their own legacy
                            session; reject: 2026-07-28 only, initialize is refused (default ${D.DEFAULT_LEGACY_CLIENTS})
  --host HOST               address to listen on (default ${D.DEFAULT_HOST})
  --port PORT               port to listen on, 0 for any free port (default ${D.DEFAULT_PORT})
  --metrics-port PORT       serve GET /metrics on 127.0.0.1:PORT only (0 for any free port)
                            instead of on the MCP listener
  --access-log on|off       one log line per request on stderr at info (default ${D.DEFAULT_ACCESS_LOG})
  --fast-lane on|off        serve plain tools/call requests without the official front's
                            per-request server (same answers, less CPU; default ${D.DEFAULT_FAST_LANE})
  --config FILE             several upstreams from a YAML file (see config/proxy.yaml; \${VAR}
                            in it reads the environment), or a desktop client's mcpServers /
                            servers JSON as it is; flags override it; saving the file or
                            SIGHUP reloads it
  --upstream URL            the legacy server's endpoint: Streamable HTTP for http(s)://,
                            WebSocket for ws(s)://
  --upstream-transport T    how --upstream is reached: http (or streamable-http), sse (the
                            2024-11-05 HTTP+SSE transport) or websocket (or ws)
  --cwd DIR                 the directory the legacy stdio server (-- COMMAND) starts in
  --state-key-file FILE     read the base64url 32-byte key sealing requestState from FILE (one
                            key per line for rotation: the first seals, every one opens). Give
                            the key this way or in env MRTR_STATE_KEY (a comma-separated list):
                            a key on the command line (--state-key KEY) is visible in ps.
                            Without one, a key is generated at start and retries must return
                            to this process
  --state-key KEY           the key itself (visible in ps: prefer the file or the environment);
                            repeatable for key rotation
  --env NAME[=VALUE]        pass the proxy's variable NAME (or set NAME=VALUE) to the legacy
                            stdio server (repeatable); it otherwise gets only HOME, LOGNAME,
                            PATH, SHELL, TERM and USER. The state key is never passed
  --child-user USER[:GROUP] run every stdio legacy server as this user (the proxy runs as
                            root): a child of the proxy's own user can read the proxy's
                            environment, memory and files, its state key included
  --pass-environment        pass the proxy's whole environment to every stdio server, but for
                            its secrets (the state key, MRTR_AUTH_CLIENT_*, the variables the
                            configuration reads headers and client secrets from)
  --advertise-url URL       this instance's base URL as the other instances reach it
                            (http://HOST:PORT); held calls name it so that a retry reaching
                            another instance is forwarded here (default: unset, one instance)
  --state-store URL         redis://HOST:PORT[/DB]: the ledger of used replay states, shared by
                            every instance (default: in memory, one instance). When it cannot
                            be reached, replay retries fail; held calls are unaffected
  --suspend MODE            how a call waits while the user answers: hold keeps the legacy call
                            on its session in this process; replay lets it go and runs it again
                            on the retry (any instance, any time); auto replays prompts, resources
                            and tools annotated readOnlyHint/idempotentHint, holds other tools
                            (default auto; per upstream: suspend in the configuration file)
  --session-scope SCOPE     principal: a legacy session carries the calls of one principal only,
                            so per-session state stays with its user; shared: any caller's, for
                            servers known to keep no state per session (default principal;
                            per upstream: sessionScope in the configuration file)
${LIMIT_HELP}  --root URI[=NAME]         a root for clients that declare no roots: legacy sessions then
                            declare roots and roots/list is answered with these (repeatable;
                            file:// URIs; default: no roots)
  --audit FILE              append one JSON line per finished interactive call (tool, prompt or
                            resource; what the legacy server asked, the client's action, timings,
                            outcome) to FILE, without user content; read it with 'mrtr-proxy report'
  --audit-max-bytes N       rename FILE to FILE.1 when it would grow past N bytes (default 64 MiB)
  --audit-content           also record what was asked and answered, the call's arguments (a
                            read's URI) and legacy error messages
  --audit-questions         also record what the server authored when it asked (the elicitation
                            message and schema, sampling parameters without the messages' text,
                            roots requests) and, after the proxy's roots round, whether the
                            result named the caller's roots: what 'mrtr-proxy report --handlers'
                            needs
  --dashboard               serve a live view at http://HOST:PORT/dashboard (calls in flight,
                            waiting interactions, recent rounds, upstream health); loopback
                            --host only: it has no authentication
  --auth-issuer URL         require OAuth bearer tokens from this issuer on every MCP path
                            (RFC 8414 / OIDC discovery, JWTs checked against its keys)
  --auth-audience AUD       the aud a token must carry (default: the route's resource URL)
  --auth-scope SCOPE        a scope every token must have (repeatable)
  --auth-introspection-url URL
                            RFC 7662 endpoint for opaque tokens (credentials in env
                            MRTR_AUTH_CLIENT_ID and MRTR_AUTH_CLIENT_SECRET)
  --resource-url URL        SCHEME://HOST[:PORT]/mcp as clients reach it: the resource identifier
                            in tokens and metadata (default: the listening URL)
  --tls-cert FILE           serve HTTPS with this PEM certificate (with --tls-key; SIGHUP
                            re-reads both)
  --tls-key FILE            the certificate's PEM private key
  --cors-origin ORIGIN      a browser origin allowed to call the proxy (CORS; repeatable)
  --allowed-host HOST       a Host name accepted besides loopback (repeatable)
  --allowed-origin ORIGIN   an Origin accepted besides loopback (repeatable)
  --insecure-no-auth        listen beyond loopback without client authentication
  --log-level LEVEL         error, warn, info or debug (default ${D.DEFAULT_LOG_LEVEL}); logs go to stderr
  --log-format FORMAT       json (one JSON object per line) or pretty (time, level, message,
                            key=value; colored on a terminal); also env MRTR_LOG_FORMAT
                            (default: pretty when stderr is a terminal, json otherwise)
  -h, --help                show this help
  --version                 show the version

A key that starts with '-' must be written --state-key=KEY.

Traces: set OTEL_TRACES_EXPORTER=otlp or OTEL_EXPORTER_OTLP_ENDPOINT (the standard OTEL_*
variables; OTLP over HTTP, protobuf or json) to export OpenTelemetry traces.

SIGTERM drains (readyz and new requests 503, running requests get --drain-timeout), then exits;
SIGINT stops at once.

Exit codes: 0 on a clean shutdown, 1 if the proxy cannot start (legacy server unreachable
or address in use), 2 for an invalid command line or configuration file.
`;
