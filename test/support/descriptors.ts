// What another process holds open, for the leak tests and the soak to compare before and after:
// read from Linux /proc by the same functions the proxy's own metrics use (telemetry/open-sockets).
// Elsewhere than Linux they cannot be read and the callers skip, loudly.
import { readdirSync } from 'node:fs';
import { readdir, readlink } from 'node:fs/promises';
import { connectionsTo as connectionsToEndpoints, descriptorUse } from '../../src/telemetry/open-sockets.js';

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
export async function openDescriptors(pid: number): Promise<number> {
  const use = await descriptorUse(pid);
  if (!use) throw new Error(`cannot read /proc/${pid}`);
  return use.open;
}

/**
 * How many descriptors `pid` has open, and how many of them are /proc files: the proxy keeps a
 * legacy child's /proc files open while it reads whether the child runs (a bounded number per child,
 * closed once a second passes unread), so how many are open at one moment depends on how many
 * children were read in the last second, which a loaded machine changes. At rest there are none.
 */
export async function descriptorKinds(pid: number): Promise<{ open: number; procFiles: number }> {
  let fds: string[];
  try {
    fds = await readdir(`/proc/${pid}/fd`);
  } catch {
    throw new Error(`cannot read /proc/${pid}`);
  }
  // A descriptor closed between the listing and its readlink is not counted.
  const targets = (await Promise.all(fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => undefined)))).filter((t) => t !== undefined);
  return { open: targets.length, procFiles: targets.filter((t) => t.startsWith('/proc/')).length };
}

/** How many TCP connections `pid` holds to 127.0.0.1:`port` (where the tests' servers listen), in any state. */
export async function connectionsTo(pid: number, port: number): Promise<number> {
  const counts = await connectionsToEndpoints([{ host: '127.0.0.1', port }], pid);
  if (!counts) throw new Error(`cannot read /proc/${pid}`);
  return counts[0]!;
}
