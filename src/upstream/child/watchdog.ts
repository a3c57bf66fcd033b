// The watchdog program (run as `node watchdog.js` on Windows, one per proxy process; elsewhere the
// proxy runs the same in sh, watchdog-sh.ts): the proxy writes `+PID`
// when it starts a legacy child in its own process group and `-PID` when the child is gone. When
// the pipe from the proxy closes (the proxy exited, or was SIGKILLed and could not clean up), the
// watchdog ends every group still listed: SIGTERM, then SIGKILL after a grace period.
import { createInterface } from 'node:readline';

const GRACE_MS = 1000;
const groups = new Set<number>();

function signalGroups(signal: NodeJS.Signals): void {
  for (const pid of groups) {
    try {
      process.kill(-pid, signal);
    } catch {
      groups.delete(pid); // the group is already gone
    }
  }
}

// A terminal's Ctrl-C or a SIGTERM to the proxy's group also reaches the watchdog: it stays until
// the proxy itself is gone, which the pipe closing tells.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => {});

createInterface({ input: process.stdin })
  .on('line', (line) => {
    const pid = Number(line.slice(1));
    if (!Number.isSafeInteger(pid) || pid <= 1) return;
    if (line.startsWith('+')) groups.add(pid);
    else if (line.startsWith('-')) groups.delete(pid);
  })
  .on('close', () => {
    signalGroups('SIGTERM');
    if (groups.size === 0) process.exit(0);
    setTimeout(() => {
      signalGroups('SIGKILL');
      process.exit(0);
    }, GRACE_MS);
  });
