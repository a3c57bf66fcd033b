// argv -> config -> running proxy (run.ts). These two are the only modules that call process.exit.
// Only what is needed to read the command line is loaded before the legacy children are started;
// the rest of the proxy (run.ts) loads while they start.
import { prestartLegacyChildren } from '../app/prestart.js';
import { resolveCli } from '../config/resolve.js';
import { ConfigError } from '../protocol/errors.js';
import { VERSION } from '../version.js';
import { HELP } from './help.js';

export async function main(argv: readonly string[], env: Record<string, string | undefined>): Promise<void> {
  if (argv[0] === 'report') process.exit(await (await import('./report.js')).runReport(argv.slice(1), env));
  let parsed: ReturnType<typeof resolveCli>;
  try {
    parsed = resolveCli(argv, env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`mrtr-proxy: ${err.message}\nRun 'mrtr-proxy --help' for usage.\n`);
    process.exit(2);
  }
  if (parsed.action === 'help') {
    process.stdout.write(HELP);
    return;
  }
  if (parsed.action === 'version') {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  prestartLegacyChildren(parsed.config);
  const { run } = await import('./run.js');
  await run(parsed.config, () => resolveCli(argv, env));
}
