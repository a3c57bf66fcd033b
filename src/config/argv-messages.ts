// Command-line messages node:util's parseArgs gets wrong here: it reads `--port -1` as a missing
// value and suggests `--port=-XYZ`, and its advice to put things after `--` is wrong for a proxy
// whose `--` starts the upstream's command. Values are never echoed (one may be the state key).
import { ConfigError } from '../protocol/errors.js';
import { LIMIT_ROWS } from './limits.js';

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
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) return `unknown option '${option}'`;
  if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && long) {
    return options[long.replace(/^-+/, '')]?.type === 'boolean' ? `${long} takes no value` : `${long}: needs a value`;
  }
  return err.message;
}
