// What a process holds open, read from Linux /proc: its descriptors and its established TCP
// connections to one port. The leak tests and the soak compare these before and after; elsewhere
// than Linux they cannot be read and the callers skip, loudly.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** Whether /proc can tell what a process holds (Linux). */
export const PROC_READABLE = (() => {
  try {
    readdirSync('/proc/self/fd');
    return true;
  } catch {
    return false;
  }
})();

/** How many descriptors `pid` has open. */
export function openDescriptors(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

/** The socket inodes among `pid`'s descriptors. */
function socketInodes(pid: number): Set<string> {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {
      // closed while we looked
    }
  }
  return inodes;
}

/**
 * How many TCP connections `pid` holds to `port` (any address, IPv4 or IPv6), in any state: one
 * the server closed and the proxy did not (CLOSE_WAIT) is still held.
 */
export function connectionsTo(pid: number, port: number): number {
  const mine = socketInodes(pid);
  let n = 0;
  for (const table of ['tcp', 'tcp6']) {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/net/${table}`, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10 || !mine.has(f[9]!)) continue;
      if (Number.parseInt(f[2]!.split(':')[1]!, 16) === port) n++;
    }
  }
  return n;
}
