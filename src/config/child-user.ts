// The user a stdio legacy server runs as (`--child-user USER[:GROUP]`, `user:` of a stdio
// upstream): another user than the proxy's cannot read the proxy's environment, memory or
// 0600 files, where a child of the proxy's own user reads them all. Switching users needs the
// proxy to run as root; asked for otherwise, it is a configuration error, never a silent no-op.
// Names resolve through /etc/passwd and /etc/group; numeric ids are taken as given.
import { readFileSync } from 'node:fs';
import { ConfigError } from '../protocol/errors.js';

/** Who a child runs as. `home` and `name` (from the passwd entry) become its HOME, USER and LOGNAME. */
export interface ChildUser {
  uid: number;
  gid: number;
  name?: string;
  home?: string;
}

/** What resolving a name needs: the two databases' text and the proxy's effective uid. */
export interface UserDatabase {
  passwd: string;
  group: string;
  euid: number;
}

interface PasswdEntry {
  name: string;
  uid: number;
  gid: number;
  home: string;
}

const ID = /^(0|[1-9]\d{0,9})$/;
/** Ids beyond this are not real (4294967295 is (uid_t)-1, "no change"). */
const MAX_ID = 4_294_967_294;

function passwdEntries(text: string): PasswdEntry[] {
  const out: PasswdEntry[] = [];
  for (const line of text.split('\n')) {
    const f = line.split(':');
    if (f.length < 7 || !ID.test(f[2]!) || !ID.test(f[3]!)) continue;
    out.push({ name: f[0]!, uid: Number(f[2]), gid: Number(f[3]), home: f[5]! });
  }
  return out;
}

function groupId(text: string, name: string): number | undefined {
  for (const line of text.split('\n')) {
    const f = line.split(':');
    if (f.length >= 3 && f[0] === name && ID.test(f[2]!)) return Number(f[2]);
  }
  return undefined;
}

function id(raw: string): number | undefined {
  if (!ID.test(raw)) return undefined;
  const n = Number(raw);
  return n <= MAX_ID ? n : undefined;
}

/** `USER[:GROUP]` resolved against `db`; `where` names the option or field in every error. */
export function parseChildUser(spec: string, where: string, db: UserDatabase): ChildUser {
  const colon = spec.indexOf(':');
  const userPart = colon === -1 ? spec : spec.slice(0, colon);
  const groupPart = colon === -1 ? undefined : spec.slice(colon + 1);
  if (userPart === '' || groupPart === '') throw new ConfigError(`${where}: expected USER or USER:GROUP (names or numeric ids), got '${spec}'`);
  const entries = passwdEntries(db.passwd);
  const numeric = id(userPart);
  if (numeric === undefined && /^\d+$/.test(userPart)) throw new ConfigError(`${where}: ${userPart} is not a user id`);
  const entry = numeric === undefined ? entries.find((e) => e.name === userPart) : entries.find((e) => e.uid === numeric);
  if (numeric === undefined && !entry) throw new ConfigError(`${where}: no user '${userPart}' in /etc/passwd (give a numeric id for a user known elsewhere)`);
  const uid = numeric ?? entry!.uid;
  let gid: number | undefined;
  if (groupPart === undefined) gid = entry?.gid;
  else {
    gid = id(groupPart) ?? groupId(db.group, groupPart);
    if (gid === undefined) throw new ConfigError(`${where}: no group '${groupPart}' in /etc/group`);
  }
  if (gid === undefined) throw new ConfigError(`${where}: user id ${uid} has no entry in /etc/passwd to take its group from; give USER:GROUP`);
  if (db.euid < 0) throw new ConfigError(`${where}: running a legacy server as another user is not supported on this platform`);
  if (db.euid !== 0) {
    throw new ConfigError(`${where}: running a legacy server as another user needs the proxy to run as root (it runs as uid ${db.euid})`);
  }
  if (uid === db.euid) throw new ConfigError(`${where}: uid ${uid} is the proxy's own user; a child running as it can read the proxy's secrets`);
  return { uid, gid, ...(entry ? { name: entry.name, home: entry.home } : {}) };
}

/** The system's user database and this process's effective uid, read when a child user is asked for. */
export function systemUserDatabase(): UserDatabase {
  const read = (path: string) => {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return '';
    }
  };
  return { passwd: read('/etc/passwd'), group: read('/etc/group'), euid: process.geteuid?.() ?? -1 };
}
