// What a process (this one by default) holds open, as the kernel sees it (Linux /proc): its
// descriptors and their limit, and its TCP connections to given endpoints. Counted from the kernel rather than from the
// HTTP, SSE and WebSocket clients' own pools, so that a connection no pool knows of any more (the
// way descriptors leak) is counted too. Elsewhere than Linux nothing can be read: undefined.
import { lookup } from 'node:dns/promises';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { isIP } from 'node:net';

/** An upstream's network endpoint: a host name or address and a port. */
export interface Endpoint {
  host: string;
  port: number;
}

/** The endpoint a URL reaches (its port, or the scheme's default). */
export function endpointOf(url: URL): Endpoint {
  const secure = url.protocol === 'https:' || url.protocol === 'wss:';
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return { host, port: url.port ? Number(url.port) : secure ? 443 : 80 };
}

/** A process as /proc names it. */
export type ProcessId = number | 'self';

/** Open descriptors and the soft limit on them; undefined where /proc cannot tell. */
export async function descriptorUse(pid: ProcessId = 'self'): Promise<{ open: number; limit: number } | undefined> {
  try {
    const [fds, limits] = await Promise.all([readdir(`/proc/${pid}/fd`), readFile(`/proc/${pid}/limits`, 'utf8')]);
    const m = /^Max open files\s+(\d+|unlimited)/m.exec(limits);
    const limit = m?.[1] === undefined || m[1] === 'unlimited' ? Number.POSITIVE_INFINITY : Number(m[1]);
    return { open: fds.length, limit };
  } catch {
    return undefined;
  }
}

/** An address as /proc/net/tcp{,6} writes it (hex, in the kernel's byte order), as text; IPv4-mapped IPv6 as IPv4. */
export function procAddress(hex: string): string {
  const bytes = (word: string) => (word.match(/../g) ?? []).reverse().map((b) => Number.parseInt(b, 16));
  if (hex.length === 8) return bytes(hex).join('.');
  const all = (hex.match(/.{8}/g) ?? []).flatMap(bytes);
  const mapped = all.slice(0, 10).every((b) => b === 0) && all[10] === 0xff && all[11] === 0xff;
  if (mapped) return all.slice(12).join('.');
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((all[i]! << 8) | all[i + 1]!).toString(16));
  return normalizeIp(groups.join(':'));
}

/** One spelling per address: IPv6 in its shortest form, IPv4-mapped IPv6 as IPv4. */
function normalizeIp(address: string): string {
  if (isIP(address) !== 6) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  return new URL(`http://[${address}]/`).hostname.slice(1, -1);
}

/**
 * For each endpoint, how many TCP connections the process holds to it, in any state (one its peer
 * closed and the process did not is still held); undefined where /proc cannot tell. A host name
 * counts connections to any address it resolves to.
 */
export async function connectionsTo(endpoints: readonly Endpoint[], pid: ProcessId = 'self'): Promise<number[] | undefined> {
  let inodes: Set<string>;
  let tables: string[];
  try {
    inodes = await socketInodes(pid);
    tables = await Promise.all(['tcp', 'tcp6'].map((t) => readFile(`/proc/${pid}/net/${t}`, 'utf8').catch(() => '')));
  } catch {
    return undefined;
  }
  const addresses = await Promise.all(endpoints.map((e) => addressesOf(e.host)));
  const counts = endpoints.map(() => 0);
  for (const line of tables.join('\n').split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f.length < 10 || !inodes.has(f[9]!)) continue;
    const [hex, portHex] = f[2]!.split(':');
    if (hex === undefined || portHex === undefined) continue;
    const port = Number.parseInt(portHex, 16);
    let address: string | undefined;
    endpoints.forEach((e, i) => {
      if (e.port !== port) return;
      address ??= procAddress(hex);
      if (addresses[i]!.has(address)) counts[i]!++;
    });
  }
  return counts;
}

async function socketInodes(pid: ProcessId): Promise<Set<string>> {
  const inodes = new Set<string>();
  for (const fd of await readdir(`/proc/${pid}/fd`)) {
    const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
    const m = /^socket:\[(\d+)\]$/.exec(target);
    if (m) inodes.add(m[1]!);
  }
  return inodes;
}

async function addressesOf(host: string): Promise<Set<string>> {
  if (isIP(host)) return new Set([normalizeIp(host)]);
  try {
    return new Set((await lookup(host, { all: true })).map((a) => normalizeIp(a.address)));
  } catch {
    return new Set();
  }
}
