// What a reload cannot change while the proxy runs, in words for the log: the listen address,
// the state key, the audit file and the front door (TLS files, CORS, allowed hosts and origins,
// resource URL, introspection credentials) are set up once, at the start. Pure.
import type { ProxyConfig } from '../config/types.js';

export function reloadNotes(running: ProxyConfig, next: ProxyConfig): string[] {
  const notes: string[] = [];
  if (next.host !== running.host || next.port !== running.port || next.stdio !== running.stdio)
    notes.push('listen address changes take effect after a restart');
  if (JSON.stringify(next.audit) !== JSON.stringify(running.audit)) notes.push('audit changes take effect after a restart');
  if (!next.stateKey.generated && Buffer.compare(next.stateKey.bytes, running.stateKey.bytes) !== 0) notes.push('a new state key takes effect after a restart');
  if (JSON.stringify(next.http) !== JSON.stringify(running.http))
    notes.push('front-door changes (TLS files, CORS, allowed hosts and origins, resource URL, introspection client) take effect after a restart');
  return notes;
}
