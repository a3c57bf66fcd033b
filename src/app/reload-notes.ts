// What a reload cannot change while the proxy runs, in words for the log: the listen address,
// the state keys, --state-store, --advertise-url, --fast-lane, --log-format, the
// audit file and the front door (TLS files, CORS, allowed hosts and origins, resource URL,
// introspection credentials) are set up once, at the start. Pure.
import type { ProxyConfig } from '../config/types.js';

/** What a reload does not change: these keep their running values. */
const RESTART_ONLY = ['host', 'port', 'stdio', 'stateKey', 'stateStore', 'advertiseUrl', 'audit', 'http', 'fastLane', 'logFormat'] as const;

/** The configuration running after a reload: `next`, except what waits for a restart. */
export function afterReload(running: ProxyConfig, next: ProxyConfig): ProxyConfig {
  const kept: Record<string, unknown> = { ...next };
  for (const k of RESTART_ONLY) {
    if (running[k] === undefined) delete kept[k];
    else kept[k] = running[k];
  }
  return kept as unknown as ProxyConfig;
}

export function reloadNotes(running: ProxyConfig, next: ProxyConfig): string[] {
  const notes: string[] = [];
  if (next.host !== running.host || next.port !== running.port || next.stdio !== running.stdio)
    notes.push('listen address changes take effect after a restart');
  if (JSON.stringify(next.audit) !== JSON.stringify(running.audit)) notes.push('audit changes take effect after a restart');
  if (!next.stateKey.generated && !sameKeys(next.stateKey.keys, running.stateKey.keys)) notes.push('changed state keys take effect after a restart');
  if (next.stateStore?.href !== running.stateStore?.href) notes.push('a changed --state-store takes effect after a restart');
  if (next.advertiseUrl?.href !== running.advertiseUrl?.href) notes.push('a changed --advertise-url takes effect after a restart');
  if (next.fastLane !== running.fastLane) notes.push('--fast-lane takes effect after a restart');
  if (next.logFormat !== running.logFormat) notes.push('--log-format takes effect after a restart');
  if (JSON.stringify(next.http) !== JSON.stringify(running.http))
    notes.push('front-door changes (TLS files, CORS, allowed hosts and origins, resource URL, introspection client) take effect after a restart');
  return notes;
}

function sameKeys(a: readonly Uint8Array[], b: readonly Uint8Array[]): boolean {
  return a.length === b.length && a.every((k, i) => Buffer.compare(k, b[i]!) === 0);
}
