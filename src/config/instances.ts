// What the instances of one deployment share, from the flags, the environment and the file: the
// state keys (rotation: several), the single-use ledger of replay states (--state-store) and the
// URL each instance is reached at by the others (--advertise-url). Every invalid value is a
// ConfigError naming its source; a key's value is never echoed (it is a secret).
import { randomBytes } from 'node:crypto';
import { ConfigError } from '../protocol/errors.js';
import { KEY_FORMAT, parseKey } from './state-key.js';
import type { ProxyConfig } from './types.js';

/**
 * The state keys: `--state-key` (repeatable) or the variable's comma-separated list. The first
 * seals, every one opens (rotation: put the new key first, keep the old one until its states expire).
 */
export function stateKeys(flags: string[] | undefined, fromEnv: string | undefined, keyEnv: string): ProxyConfig['stateKey'] {
  let keys: Uint8Array[];
  if (flags !== undefined) {
    // An empty flag is a mistake (`--state-key "$UNSET"`), not a request for a throw-away key.
    if (flags.some((f) => f === '')) throw new ConfigError(`--state-key: empty; ${KEY_FORMAT}, or leave the option out`);
    keys = flags.map((raw, i) => parseKey(raw, flags.length === 1 ? '--state-key' : `--state-key (#${i + 1})`));
  } else {
    if (fromEnv === undefined || fromEnv === '') return { bytes: new Uint8Array(randomBytes(32)), keys: [], generated: true, from: 'generated' };
    const parts = fromEnv.split(',').map((p) => p.trim());
    keys = parts.map((raw, i) => parseKey(raw, parts.length === 1 ? keyEnv : `${keyEnv} (key #${i + 1})`));
  }
  return { bytes: keys[0]!, keys, generated: false, from: flags !== undefined ? 'argv' : { env: keyEnv } };
}

/**
 * The keys in a `--state-key-file`: one per line (or comma-separated), the first seals. An empty
 * file is a mistake, not a request for a throw-away key.
 */
export function stateKeysFromFile(text: string): Omit<ProxyConfig['stateKey'], 'from'> {
  const parts = text
    .split(/[\n,]/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (parts.length === 0) throw new ConfigError(`--state-key-file: empty; write a key in the file (one per line for rotation): ${KEY_FORMAT}`);
  const keys = parts.map((raw, i) => parseKey(raw, parts.length === 1 ? '--state-key-file' : `--state-key-file (key #${i + 1})`));
  return { bytes: keys[0]!, keys, generated: false };
}

/** This instance's base URL for the others: http(s), no path, query or fragment. */
export function advertiseUrl(raw: string | undefined): { advertiseUrl?: URL } {
  if (raw === undefined) return {};
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`--advertise-url: '${raw}' is not a URL (expected http://HOST:PORT)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(`--advertise-url: only http and https URLs are supported, got '${url.protocol}'`);
  if (url.pathname !== '/' || url.search || url.hash) throw new ConfigError('--advertise-url: give the base URL only (http://HOST:PORT), without a path');
  return { advertiseUrl: url };
}

/** `redis://HOST:PORT[/DB]` (or rediss://) for the shared single-use ledger; absent: in memory. */
export function stateStore(raw: string | undefined, source: string): { stateStore?: URL } {
  if (raw === undefined) return {};
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${source}: not a URL (expected redis://HOST:PORT[/DB])`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
    throw new ConfigError(`${source}: only redis:// and rediss:// are supported, got '${url.protocol}'`);
  if (url.hostname === '') throw new ConfigError(`${source}: names no host (expected redis://HOST:PORT[/DB])`);
  if (!/^\/?(\d+)?$/.test(url.pathname)) throw new ConfigError(`${source}: the path must be a database number, got '${url.pathname}'`);
  return { stateStore: url };
}
