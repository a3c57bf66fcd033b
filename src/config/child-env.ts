// What a stdio child's environment holds beyond the v1 SDK's minimal default (HOME, LOGNAME, PATH,
// SHELL, TERM, USER): the variables the operator names with `--env NAME` / `--env NAME=VALUE` or
// `env:` in the configuration file, or the whole environment with --pass-environment (or
// `passEnvironment: true`), never the proxy's own secrets. Resolved once, at configuration.
import { ConfigError } from '../protocol/errors.js';
import { INTROSPECTION_CLIENT_ID_ENV, INTROSPECTION_CLIENT_SECRET_ENV } from './http-front.js';

/** The variable the state key is read from unless the file names another (`stateKeyEnv`). */
export const STATE_KEY_ENV = 'MRTR_STATE_KEY';

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The proxy's own secrets by variable name: the default key variable and the configured one. */
export function secretNames(stateKeyEnv: string | undefined): ReadonlySet<string> {
  return new Set([STATE_KEY_ENV, ...(stateKeyEnv === undefined ? [] : [stateKeyEnv])]);
}

/**
 * Every variable the proxy reads a secret from, which the whole-environment pass withholds: the
 * state key's, the introspection client's credentials, and `credentials`, the variables the
 * configuration reads headers and client secrets from.
 */
export function withheldNames(stateKeyEnv: string | undefined, credentials: readonly string[]): ReadonlySet<string> {
  return new Set([...secretNames(stateKeyEnv), INTROSPECTION_CLIENT_ID_ENV, INTROSPECTION_CLIENT_SECRET_ENV, ...credentials]);
}

/** The proxy's whole environment but for `withheld` (and names that are not variable names). */
export function passedEnvironment(env: Record<string, string | undefined>, withheld: ReadonlySet<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && NAME.test(name) && !withheld.has(name)) out[name] = value;
  }
  return out;
}

/** Refuses a variable name that is not one, or that is one of the proxy's secrets. */
export function checkChildVariable(name: string, where: string, secrets: ReadonlySet<string>): void {
  if (!NAME.test(name)) throw new ConfigError(`${where}: '${name}' is not an environment variable name`);
  if (secrets.has(name)) throw new ConfigError(`${where}: ${name} holds the proxy's state key, which is never passed to a legacy server`);
}

/**
 * `--env` values: `NAME` passes the proxy's variable of that name (it must be set), `NAME=VALUE`
 * sets it. The result is what the child gets on top of the SDK's default.
 */
export function envFromFlags(entries: readonly string[], env: Record<string, string | undefined>, secrets: ReadonlySet<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of entries) {
    const eq = entry.indexOf('=');
    const name = eq === -1 ? entry : entry.slice(0, eq);
    checkChildVariable(name, '--env', secrets);
    if (eq !== -1) {
      out[name] = entry.slice(eq + 1);
      continue;
    }
    const value = env[name];
    if (value === undefined) throw new ConfigError(`--env ${name}: the proxy's environment has no ${name} to pass on`);
    out[name] = value;
  }
  return out;
}

/** The file's `env:` for a child: literals, and the proxy's variables named by `{ env: NAME }`. */
export function envFromFile(
  spec: Record<string, string | { env: string }>,
  env: Record<string, string | undefined>,
  where: string,
  secrets: ReadonlySet<string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(spec)) {
    checkChildVariable(name, where, secrets);
    if (typeof value === 'string') {
      out[name] = value;
      continue;
    }
    checkChildVariable(value.env, `${where}.${name}`, secrets);
    const passed = env[value.env];
    if (passed === undefined) throw new ConfigError(`${where}.${name}: environment variable ${value.env} is not set`);
    out[name] = passed;
  }
  return out;
}
