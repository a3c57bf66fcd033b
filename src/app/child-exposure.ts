// What a stdio legacy server could read of the proxy's secrets, said once at start. A child of the
// proxy's own user reads the proxy's /proc/PID/environ (the state key when it came from the
// environment, every credential given in a variable), every file the proxy reads (the key file,
// the configuration file) and, where ptrace is not restricted, its memory; only another user
// keeps them out (config/child-user.ts). A child of another user still reads what is readable by
// all: a world-readable key or configuration file, the command line.
import { readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { ChildUser } from '../config/child-user.js';
import { STATE_KEY_ENV } from '../config/child-env.js';
import { INTROSPECTION_CLIENT_SECRET_ENV as AUTH_SECRET_ENV } from '../config/http-front.js';
import type { ProxyConfig } from '../config/types.js';

/** What the warnings depend on beyond the configuration, gathered by `systemExposureFacts`. */
export interface ExposureFacts {
  pid: number;
  /** The proxy's effective uid; negative where there is none (Windows: no warnings). */
  euid: number;
  /** kernel.yama.ptrace_scope; undefined without Yama (a process may then read the memory of another of its user). */
  ptraceScope: number | undefined;
  /** The proxy's environment, to name the secrets' variables it was started with. */
  env: Record<string, string | undefined>;
  /** Owner, group and mode of a file; undefined when it cannot be read. */
  stat(path: string): { uid: number; gid: number; mode: number } | undefined;
}

export interface Exposure {
  message: string;
  upstreams: string[];
}

type FileStat = NonNullable<ReturnType<ExposureFacts['stat']>>;

/** Whether `user` has the permission `bit` (4 read, 1 search) on a file (supplementary groups aside: libuv drops them). */
function permits(file: FileStat, user: ChildUser, bit: 4 | 1): boolean {
  if (file.uid === user.uid) return (file.mode & (bit << 6)) !== 0;
  if (file.gid === user.gid) return (file.mode & (bit << 3)) !== 0;
  return (file.mode & bit) !== 0;
}

/**
 * Whether `user` can read the file at the absolute `path`: the file readable by it and every
 * directory above searchable. A directory that cannot be looked at counts as searchable (warn
 * rather than miss one).
 */
export function readableBy(path: string, user: ChildUser, stat: ExposureFacts['stat']): boolean {
  const file = stat(path);
  if (file === undefined || !permits(file, user, 4)) return false;
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    const s = stat(dir);
    if (s !== undefined && !permits(s, user, 1)) return false;
    if (dirname(dir) === dir) return true;
  }
}

/** The warnings to log at start: none when no stdio child can read a secret of the proxy's. */
export function childExposures(config: ProxyConfig, facts: ExposureFacts): Exposure[] {
  if (facts.euid < 0) return [];
  const stdio = config.upstreams.flatMap((u) => (u.target.kind === 'stdio' ? [{ name: u.name, user: u.target.user }] : []));
  const from = config.stateKey.from;
  const keyFile = typeof from === 'object' && 'file' in from ? from.file : undefined;
  const out: Exposure[] = [];
  const sameUser = stdio.filter((c) => c.user === undefined).map((c) => c.name);
  if (sameUser.length > 0) out.push({ message: sameUserMessage(config, facts, keyFile), upstreams: sameUser });
  const files = [
    ...(keyFile === undefined ? [] : [{ what: 'the state key file', path: keyFile }]),
    ...(config.configFile === undefined ? [] : [{ what: 'the configuration file', path: config.configFile }]),
  ];
  for (const { what, path } of files) {
    const readers = stdio.filter((c) => c.user !== undefined && readableBy(resolve(path), c.user, facts.stat)).map((c) => c.name);
    if (readers.length > 0)
      out.push({
        message: `${what} ${path} is readable by the user a legacy server runs as: make it readable by the proxy's user only (chmod 600)`,
        upstreams: readers,
      });
  }
  const otherUser = stdio.filter((c) => c.user !== undefined).map((c) => c.name);
  if (from === 'argv' && otherUser.length > 0)
    out.push({
      message: `the state key is on the command line (--state-key), which every user reads in /proc/${facts.pid}/cmdline: give it in a file or the environment`,
      upstreams: otherUser,
    });
  return out;
}

function sameUserMessage(config: ProxyConfig, facts: ExposureFacts, keyFile: string | undefined): string {
  const from = config.stateKey.from;
  const keyEnv = typeof from === 'object' && 'env' in from ? from.env : STATE_KEY_ENV;
  // Set, a variable is in /proc/PID/environ whether or not the key was taken from it.
  const named = [...new Set([keyEnv, STATE_KEY_ENV, AUTH_SECRET_ENV])].filter((n) => facts.env[n] !== undefined && facts.env[n] !== '');
  const readable = [
    `its environment in /proc/${facts.pid}/environ (${named.map((n) => `${n}, `).join('')}every credential given in a variable)`,
    ...(keyFile === undefined ? [] : [`the state key file ${keyFile}`]),
    ...(config.configFile === undefined ? [] : [`the configuration file ${config.configFile} (every upstream's settings, literal header values included)`]),
    ...(facts.ptraceScope === undefined || facts.ptraceScope === 0
      ? [
          `its memory in /proc/${facts.pid}/mem (the state key and every credential and token it holds: kernel.yama.ptrace_scope is ${facts.ptraceScope === undefined ? 'absent' : '0'})`,
        ]
      : []),
  ];
  const prevent =
    facts.euid === 0
      ? 'run them as another user: --child-user USER, or user: in a stdio upstream of the configuration file'
      : `only another user keeps them out: run the proxy as root with --child-user USER (or user: per stdio upstream); as it runs (uid ${facts.euid}), start only legacy servers you trust with these secrets`;
  return `legacy servers started over stdio run as the proxy's own user, so each can read the proxy's secrets: ${readable.join('; ')}. To prevent it, ${prevent}`;
}

/** This process's facts. */
export function systemExposureFacts(): ExposureFacts {
  let ptraceScope: number | undefined;
  try {
    ptraceScope = Number(readFileSync('/proc/sys/kernel/yama/ptrace_scope', 'utf8').trim());
  } catch {
    ptraceScope = undefined;
  }
  return {
    pid: process.pid,
    euid: process.geteuid?.() ?? -1,
    ptraceScope,
    env: process.env,
    stat: (path) => {
      try {
        const s = statSync(path);
        return { uid: s.uid, gid: s.gid, mode: s.mode };
      } catch {
        return undefined;
      }
    },
  };
}
