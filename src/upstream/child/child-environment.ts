// The environment of every legacy child the proxy starts (sessions, the era probe, the modern
// stdio relay): the v1 SDK's default (HOME, LOGNAME, PATH, SHELL, TERM, USER) plus the variables
// the configuration resolved for it. Nothing else of the proxy's environment, its state key
// included, reaches a child.
//
// The default is the v1 SDK's `getDefaultEnvironment()` (client/stdio.js, pinned 1.32.2), written
// out here: importing that module loads the SDK's schemas, which would delay starting the first
// children (upstream/child/prestart.ts). test/unit/child-env.test.ts checks the two agree.

/** The SDK's DEFAULT_INHERITED_ENV_VARS. */
const INHERITED =
  process.platform === 'win32'
    ? [
        'APPDATA',
        'HOMEDRIVE',
        'HOMEPATH',
        'LOCALAPPDATA',
        'PATH',
        'PROCESSOR_ARCHITECTURE',
        'SYSTEMDRIVE',
        'SYSTEMROOT',
        'TEMP',
        'USERNAME',
        'USERPROFILE',
        'PROGRAMFILES',
      ]
    : ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'];

export function defaultEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of INHERITED) {
    const value = process.env[key];
    // Shell functions exported through the environment are skipped, as the SDK does.
    if (value === undefined || value.startsWith('()')) continue;
    env[key] = value;
  }
  return env;
}

/**
 * Said when a stdio server exits as it starts: a server that needs a variable (an API key, a
 * database URL) often fails that way, with its own message, and nothing else says why it lacks it.
 */
export function minimalEnvironmentHint(): string {
  return `a stdio server gets only ${INHERITED.join(', ')} of the proxy's environment: if it needs another variable, pass it with --env NAME (or NAME=VALUE), or \`env:\` on the upstream in the configuration file`;
}

export function childEnvironment(target: { env?: Record<string, string> }): Record<string, string> {
  return { ...defaultEnvironment(), ...target.env };
}
