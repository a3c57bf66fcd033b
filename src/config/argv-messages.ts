// Command-line messages node:util's parseArgs gets wrong here: it reads `--port -1` as a missing
// value and suggests `--port=-XYZ`, and its advice to put things after `--` is wrong for a proxy
// whose `--` starts the upstream's command. A mistyped option names the closest real one, and the
// flags of other MCP proxies name ours. Values are never echoed (one may be the state key).
import { ConfigError } from '../protocol/errors.js';
import { closest } from './closest.js';
import { LIMIT_ROWS } from './limits.js';

/** Other proxies' flags (sparfenyuk's and punkpeye's mcp-proxy) and what to write here instead. */
const FOREIGN_FLAGS: Readonly<Record<string, string>> = {
  'allow-origin': '--cors-origin',
  'named-server-config': '--config (it reads the mcpServers file as it is)',
  'named-server': '--config with an mcpServers file',
  transport: '--upstream-transport',
  'sse-port': '--port',
  'sse-host': '--host',
  'port-host': '--host',
  debug: '--log-level debug',
  headers: 'headers: for the upstream in a configuration file',
};

/** The parser's option table, as far as these messages need it. */
type Options = Readonly<Record<string, { type: 'string' | 'boolean' }>>;

/** String options whose values are numbers: a negative one is a range error, not a missing value. */
const NUMERIC_OPTIONS = new Set(['port', ...LIMIT_ROWS.map((r) => r.option)]);

/**
 * parseArgs reads `--port -1` as an option without a value and suggests `--port=-XYZ`. A numeric
 * option followed by a negative number is answered with its range; any other string option followed
 * by something that starts with `-` gets the `--option=VALUE` form.
 */
export function checkDashValues(args: readonly string[], options: Options): void {
  const flags = new Set(Object.keys(options).map((o) => `--${o}`));
  for (let i = 0; i < args.length - 1; i++) {
    const name = /^--([a-z-]+)$/.exec(args[i]!)?.[1];
    const next = args[i + 1]!;
    if (name === undefined || !next.startsWith('-') || options[name]?.type !== 'string') continue;
    if (NUMERIC_OPTIONS.has(name) && /^-\d+$/.test(next)) {
      const row = LIMIT_ROWS.find((r) => r.option === name);
      throw new ConfigError(`--${name}: ${next} is out of range (${row?.min ?? 0} to ${row?.max ?? 65535})`);
    }
    // Never echo the value: it may be the state key.
    if (!flags.has(next)) throw new ConfigError(`--${name}: a value that starts with '-' is written --${name}=VALUE`);
    throw new ConfigError(`--${name}: needs a value`);
  }
}

/** Node's parser messages, minus advice that is wrong here (after `--` comes the upstream's command). */
export function parserMessage(err: Error & { code?: string }, options: Options): string {
  // The first quoted option in the message, without a value (`--state-kye=SECRET` must not echo it).
  const option = /'(-{1,2}[^'=\s,]+)[^']*'/.exec(err.message)?.[1];
  const long = /'(?:-\w, )?(--[a-z-]+)[^']*'/.exec(err.message)?.[1] ?? option;
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) return `unknown option '${option}'${suggestion(option, options)}`;
  if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && long) {
    return options[long.replace(/^-+/, '')]?.type === 'boolean' ? `${long} takes no value` : `${long}: needs a value`;
  }
  return err.message;
}

/** ` (did you mean --port?)` for a mistyped or foreign long option; empty when none is near. */
function suggestion(option: string, options: Options): string {
  if (!option.startsWith('--')) return '';
  const name = option.slice(2);
  const instead = FOREIGN_FLAGS[name] ?? closest(name, Object.keys(options));
  if (instead === undefined) return '';
  return ` (did you mean ${instead.startsWith('-') || instead.includes(':') ? instead : `--${instead}`}?)`;
}

/**
 * A word before `--` that no option took: `--env NAME VALUE` (two tokens), a URL (the legacy
 * server's, given as other proxies take it), or the server's command without its `--`.
 */
export function positionalMessage(args: readonly string[], positional: string): string {
  for (let i = 0; i + 2 < args.length; i++) {
    const name = args[i + 1]!;
    if (args[i] === '--env' && !name.includes('=') && args[i + 2] === positional)
      return `--env ${name} VALUE: write --env ${name}=VALUE (one argument; a server's command goes after --)`;
  }
  // The URL is not echoed: it may carry a token.
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(positional)) {
    return 'unexpected URL argument: give the legacy server as --upstream URL (with --upstream-transport sse for an SSE server)';
  }
  return `unexpected argument '${positional}' (put the legacy server's command after --)`;
}
