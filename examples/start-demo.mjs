// `npm start`: runs mrtr-proxy in front of the legacy demo server and prints how to talk to it.
//
//   node examples/start-demo.mjs            (after `npm run build`; `npm start` does both)
//   PORT=9000 node examples/start-demo.mjs  (another port; PORT=0 picks a free one)
//
// The proxy's log lines go to stderr unchanged: readable ones (--log-format pretty, colored) when
// our stderr is a terminal, JSON when it is piped or redirected, as the proxy would choose itself
// were it writing to our stderr rather than to the pipe we read. The guide goes to stdout once the
// proxy is listening. Ctrl-C (SIGINT), SIGTERM or SIGHUP is passed on to the proxy, which stops the
// demo server and exits; this script then exits with the proxy's exit code. So does the end of
// the process that started it, or of npm above it (a SIGTERM or SIGHUP to npm's pid).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const proxyBin = fileURLToPath(new URL('../bin/mrtr-proxy.js', import.meta.url));
const demoServer = fileURLToPath(new URL('../dist/examples/demo-server.js', import.meta.url));
const port = process.env.PORT || '8080';
// MRTR_LOG_FORMAT, if set, still wins.
const terminal = process.stderr.isTTY
  ? { MRTR_LOG_FORMAT: process.env.MRTR_LOG_FORMAT || 'pretty', ...(process.stderr.hasColors() ? { FORCE_COLOR: '1' } : {}) }
  : {};

if (!existsSync(demoServer)) {
  process.stderr.write(`start-demo: ${demoServer} is missing; run 'npm run build' first (or use 'npm start').\n`);
  process.exit(1);
}

// The proxy gets its own process group (detached) so that a Ctrl-C in the terminal reaches it
// exactly once, through us, rather than twice (once from the terminal, once forwarded).
const proxy = spawn(process.execPath, [proxyBin, '--host', '127.0.0.1', '--port', port, '--', process.execPath, demoServer], {
  cwd: root,
  env: { ...process.env, ...terminal },
  stdio: ['ignore', 'inherit', 'pipe'],
  detached: true,
});

let ready = false;
createInterface({ input: proxy.stderr }).on('line', (line) => {
  process.stderr.write(`${line}\n`);
  if (ready) return;
  const m = /listening on (http:\/\/[^\s"]+)/.exec(line);
  if (!m) return;
  ready = true;
  process.stdout.write(guide(m[1]));
});

// Forward the first SIGINT/SIGTERM/SIGHUP; a third signal forces the proxy's whole group down.
let signals = 0;
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    signals += 1;
    if (proxy.exitCode !== null || proxy.signalCode !== null) return;
    if (signals === 1) {
      process.stderr.write(`start-demo: ${sig}, stopping the proxy...\n`);
      proxy.kill(sig === 'SIGHUP' ? 'SIGTERM' : sig);
    } else if (signals >= 3) {
      process.stderr.write('start-demo: forcing the proxy down\n');
      try {
        process.kill(-proxy.pid, 'SIGKILL');
      } catch {
        proxy.kill('SIGKILL');
      }
    }
  });
}

// `npm start` runs us under `sh -c`. npm passes only SIGINT and SIGTERM on, to that shell, which
// dies without passing them further; a SIGHUP kills npm itself and leaves the shell running. Either
// way we would be left running with the proxy on its port. So we watch who started us: a new
// parent means our shell is gone, and a gone grandparent (when our parent is the shell npm runs
// scripts in) means npm is: stop as for SIGTERM. (Ctrl-C reaches us directly: the terminal
// signals its whole foreground group.)
const parent = process.ppid;
const npm = process.env.npm_lifecycle_event ? npmAbove(parent) : undefined;
const orphaned = setInterval(() => {
  if (process.ppid === parent && (npm === undefined || running(npm))) return;
  clearInterval(orphaned);
  if (signals > 0 || proxy.exitCode !== null || proxy.signalCode !== null) return;
  signals += 1;
  process.stderr.write('start-demo: the process that started us is gone, stopping the proxy...\n');
  proxy.kill('SIGTERM');
}, 250);
orphaned.unref();

/** npm's pid when `pid` is the shell npm ran our script in (ps: Linux and macOS), else undefined. */
function npmAbove(pid) {
  try {
    const [ppid, command] = execFileSync('ps', ['-o', 'ppid=,comm=', '-p', String(pid)], { encoding: 'utf8' })
      .trim()
      .split(/\s+/);
    return /(^|\/)(sh|bash|dash|zsh|ksh|ash)$/.test(command ?? '') && Number(ppid) > 1 ? Number(ppid) : undefined;
  } catch {
    return undefined;
  }
}

function running(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

// Being in its own group, the proxy would outlive us if we crashed: take it down on any exit.
process.on('exit', () => {
  if (proxy.exitCode === null && proxy.signalCode === null) proxy.kill('SIGTERM');
});

proxy.on('error', (err) => {
  process.stderr.write(`start-demo: cannot start the proxy: ${err.message}\n`);
  process.exit(1);
});

proxy.on('exit', (code, signal) => {
  if (!ready) process.stderr.write('start-demo: the proxy stopped before it was ready (see its log above).\n');
  process.exitCode = code ?? 128 + (constants.signals[signal] ?? 0);
  // Leave once our pipes drain; nothing else keeps this process alive.
});

function guide(url) {
  const caps = (c) => `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":${c}}`;
  const curl = (method, name) =>
    [
      `curl -sN -w '\\n' ${url} \\`,
      `  -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \\`,
      `  -H 'MCP-Protocol-Version: 2026-07-28' -H 'Mcp-Method: ${method}'${name ? ` -H 'Mcp-Name: ${name}'` : ''} \\`,
    ].join('\n');
  const book = `"name":"book_table","arguments":{"name":"Ada"},${caps('{"elicitation":{}}')}`;
  // Pulls requestState out of the JSON answer (no jq needed).
  const grab = `sed -n 's/.*"requestState":"\\([^"]*\\)".*/\\1/p'`;
  return `
==============================================================================
 mrtr-proxy demo is running
==============================================================================
 Endpoint:      ${url}
 Legacy server: mrtr-demo (dist/examples/demo-server.js over stdio, 2025-11-25)
 Tools:         add, book_table (elicitation, 2 rounds), summarize (sampling),
                project_files (roots), plan_trip (elicitation + sampling, 2 rounds)
 Also:          prompt dinner_invite, resource demo://trattoria/menu

 Every 2026-07-28 request carries the protocol version and the client's
 capabilities in params._meta, plus the MCP-Protocol-Version, Mcp-Method and
 (for tools/call) Mcp-Name headers. Paste these into a shell:

 1. Discover the server:

${curl('server/discover')}
  -d '{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{${caps('{}')}}}'

 2. Call book_table. The legacy server asks a question mid-call; the proxy
    answers with
      {"resultType":"input_required",
       "inputRequests":{"elicitation-1":{"method":"elicitation/create",...}},
       "requestState":"<opaque>"}
    and we keep requestState in $STATE:

STATE=$(${curl('tools/call', 'book_table')}
  -d '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{${book}}}' \\
  | tee /dev/stderr | ${grab}); echo

 3. Retry the SAME call with the answers in "inputResponses" (one per key of
    inputRequests) and requestState copied back unchanged. book_table then
    asks for a confirmation (input_required again, key "elicitation-2"):

STATE=$(${curl('tools/call', 'book_table')}
  -d '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{${book},
      "inputResponses":{"elicitation-1":{"action":"accept","content":{"partySize":4,"time":"19:30"}}},
      "requestState":"'"$STATE"'"}}' \\
  | tee /dev/stderr | ${grab}); echo

 4. Confirm; this time the answer is the tool's result ("Booked: a table for 4"):

${curl('tools/call', 'book_table')}
  -d '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{${book},
      "inputResponses":{"elicitation-2":{"action":"accept","content":{"confirm":true}}},
      "requestState":"'"$STATE"'"}}'

 Or let the official 2026-07-28 client run every round for you:

node dist/examples/client-demo.js ${url}

 Ctrl-C stops the proxy and the demo server.
==============================================================================
`;
}
