// argv (+ environment, + the configuration file) -> ProxyConfig, with configuration files read and
// validated by file.ts (zod). The resolution itself is resolve-argv.ts, which loads no zod:
// cli/main.ts uses it directly and brings file.ts in only when the command line names a file.
import { loadConfigFile, validateConfig, type ConfigObject, type ConfigSource } from './file.js';
import { type CliAction, resolveArgv, resolveConfig } from './resolve-argv.js';
import type { ProxyConfig } from './types.js';

export type { CliAction };

export function resolveCli(argv: readonly string[], env: Record<string, string | undefined>): CliAction {
  return resolveArgv(argv, env, loadConfigFile);
}

/** A configuration object as the YAML file describes it (the library's input), resolved with no flags. */
export function resolveObject(object: ConfigObject, env: Record<string, string | undefined>, from: ConfigSource): ProxyConfig {
  return resolveConfig({}, [], env, validateConfig(object, env, from), from.source);
}
