// The environment of every legacy child the proxy starts (sessions, the era probe, the modern
// stdio relay): the v1 SDK's default (HOME, LOGNAME, PATH, SHELL, TERM, USER) plus the variables
// the configuration resolved for it (a child run as another user gets that user's HOME, USER and
// LOGNAME). Nothing else of the proxy's environment, its state key included, reaches a child;
// what a child of the proxy's own user can read of it elsewhere is app/child-exposure.ts's.
//
// The default is the v1 SDK's `getDefaultEnvironment()` (client/stdio.js, pinned 1.32.2), written
// out here: importing that module loads the SDK's schemas, which would delay starting the first
// children (upstream/child/prestart.ts). test/unit/child-env.test.ts checks the two agree.
import type { ChildUser } from '../../config/child-user.js';

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

/** A child run as another user gets that user's HOME, USER and LOGNAME, not the proxy's. */
function identity(user: ChildUser | undefined): Record<string, string> {
  if (user?.name === undefined) return {};
  return { HOME: user.home ?? '/', USER: user.name, LOGNAME: user.name };
}

export function childEnvironment(target: { env?: Record<string, string>; user?: ChildUser }): Record<string, string> {
  const env = { ...defaultEnvironment(), ...identity(target.user), ...target.env };
  // A user with no passwd entry (a numeric id) has no home of its own; the proxy's is not its.
  if (target.user !== undefined && target.user.name === undefined && target.env?.['HOME'] === undefined) delete env['HOME'];
  return env;
}

/**
 * Said when a stdio server exits as it starts: a server that needs a variable (an API key, a
 * database URL) often fails that way, with its own message, and nothing else says why it lacks it.
 */
export function minimalEnvironmentHint(): string {
  return `a stdio server gets only ${INHERITED.join(', ')} of the proxy's environment: if it needs another variable, pass it with --env NAME (or NAME=VALUE), \`env:\` on the upstream in the configuration file, or --pass-environment`;
}
