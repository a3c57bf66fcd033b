import * as D from '../config/defaults.js';

export const VERSION = '0.1.0';

export const HELP = `mrtr-proxy ${VERSION}: lets MCP 2026-07-28 clients use legacy (2025-11-25 and older) MCP servers.

Usage:
  mrtr-proxy [options] --upstream http://HOST:PORT/mcp    legacy server over Streamable HTTP
  mrtr-proxy [options] -- COMMAND [ARGS...]               legacy server over stdio, spawned by the proxy
  mrtr-proxy [options] --config FILE                      several upstreams from a configuration file
  mrtr-proxy --stdio [options] (--upstream URL | -- COMMAND [ARGS...] | --config FILE)
                                                          serve on stdin/stdout (a client launches the proxy)

The proxy serves 2026-07-28 Streamable HTTP at POST http://HOST:PORT/mcp (with --config, each
upstream at /servers/NAME/mcp), GET /healthz and GET /readyz. Clients that open with a legacy
initialize get a transparent legacy session on the same endpoint (see --legacy-clients).

Options:
  --stdio                   serve 2026-07-28 on stdin/stdout instead of HTTP (logs stay on stderr)
  --legacy-clients MODE     pass: clients that open with initialize are relayed to their own legacy
                            session; reject: 2026-07-28 only, initialize is refused (default ${D.DEFAULT_LEGACY_CLIENTS})
  --host HOST               address to listen on (default ${D.DEFAULT_HOST})
  --port PORT               port to listen on, 0 for any free port (default ${D.DEFAULT_PORT})
  --config FILE             several upstreams from a YAML file (see config/proxy.yaml); flags
                            override it; SIGHUP reloads it
  --upstream URL            the legacy server's Streamable HTTP endpoint
  --state-key KEY           base64url 32-byte key sealing requestState (env MRTR_STATE_KEY).
                            Without one, a key is generated at start and retries must return
                            to this process
  --interaction-ttl SECS    end a suspended interaction nobody resumes within SECS (default ${D.DEFAULT_INTERACTION_TTL_S})
  --max-sessions N          legacy sessions open at once, across capability sets (default ${D.DEFAULT_MAX_SESSIONS})
  --spare-sessions N        idle legacy sessions kept started per capability set in use, so an
                            interactive call does not wait for a legacy start-up (default ${D.DEFAULT_SPARE_SESSIONS})
  --session-wait SECS       how long a request waits for a free legacy session (default ${D.DEFAULT_SESSION_WAIT_S})
  --call-timeout SECS       how long a request waits on the legacy server between rounds
                            before the call is cancelled (default ${D.DEFAULT_CALL_TIMEOUT_S})
  --gather-window MS        legacy requests arriving within MS of the first go out in one
                            input_required (default ${D.DEFAULT_GATHER_WINDOW_MS})
  --idle-session-ttl SECS   close pooled legacy sessions, and legacy clients' sessions with no
                            open request or stream, idle this long (default ${D.DEFAULT_IDLE_SESSION_TTL_S})
  --connect-timeout SECS    limit for starting and initializing a legacy session (default ${D.DEFAULT_CONNECT_TIMEOUT_S})
  --root URI[=NAME]         a root to answer legacy roots/list with outside an interactive
                            call (repeatable; file:// URIs; default: no roots)
  --log-level LEVEL         error, warn, info or debug (default ${D.DEFAULT_LOG_LEVEL}); logs are JSON on stderr
  -h, --help                show this help
  --version                 show the version

A key that starts with '-' must be written --state-key=KEY.

Exit codes: 0 on a clean shutdown, 1 if the proxy cannot start (legacy server unreachable
or address in use), 2 for an invalid command line.
`;
