// Starting a legacy child (a session's server, the era probe, the modern stdio relay): with the
// minimal environment (child-environment.ts), as the configured user if there is one, in a process
// group of its own, and registered with the proxy instance's watchdog (watchdog.ts), so the child
// and anything it started end with the proxy even when the proxy is SIGKILLed and cannot close them.
import { type ChildProcess, spawn, type StdioOptions } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ChildUser } from '../../config/child-user.js';
import { childEnvironment } from './child-environment.js';
import { WATCHDOG_NAME, WATCHDOG_SCRIPT } from './watchdog-sh.js';

export interface ChildTarget {
  command: string;
  args: readonly string[];
  cwd?: string;
  env?: Record<string, string>;
  /** Run as this user instead of the proxy's (the proxy runs as root). */
  user?: ChildUser;
}

const WATCHDOG = fileURLToPath(new URL('./watchdog.js', import.meta.url));

/** Starts legacy children for one proxy instance, each registered with the instance's watchdog (started on first use). */
export class Children {
  private watchdog: ChildProcess | undefined;

  spawn(target: ChildTarget, stdio: StdioOptions): ChildProcess {
    const child = spawn(target.command, [...target.args], {
      env: childEnvironment(target),
      stdio,
      detached: true,
      ...(target.cwd === undefined ? {} : { cwd: target.cwd }),
      // libuv also drops the proxy's supplementary groups when it switches the user.
      ...(target.user === undefined ? {} : { uid: target.user.uid, gid: target.user.gid }),
    });
    const pid = child.pid;
    if (pid !== undefined) {
      this.tell(`+${pid}`);
      child.once('exit', () => this.tell(`-${pid}`));
    }
    return child;
  }

  /** Lets the watchdog go: it ends any group still listed (none, after a clean close) and exits. */
  close(): void {
    this.watchdog?.stdin?.end();
    this.watchdog = undefined;
  }

  /** Tells the watchdog about a group to end, or one that is gone. */
  private tell(line: string): void {
    let watchdog = this.watchdog;
    if (!watchdog || watchdog.exitCode !== null || watchdog.signalCode !== null) {
      // A shell where there is one (watchdog-sh.ts: it starts much faster than a second node), in
      // a session of its own: a SIGKILL to the proxy's whole process group (a supervisor's kill -9
      // of the group) must not take the watchdog with it, or children that ignore their stdin
      // closing would outlive the proxy.
      watchdog =
        process.platform === 'win32'
          ? spawn(process.execPath, [WATCHDOG], { stdio: ['pipe', 'ignore', 'inherit'] })
          : spawn('/bin/sh', ['-c', WATCHDOG_SCRIPT, WATCHDOG_NAME], { stdio: ['pipe', 'ignore', 'inherit'], detached: true });
      // Neither the watchdog nor its pipe keeps the proxy running.
      watchdog.unref();
      (watchdog.stdin as unknown as { unref(): void }).unref();
      watchdog.stdin!.on('error', () => {});
      this.watchdog = watchdog;
    }
    watchdog.stdin!.write(`${line}\n`);
  }
}

/** Signals the child's whole process group (what it started too); false if it is gone. */
export function signalChild(child: ChildProcess, signal: NodeJS.Signals): boolean {
  if (child.pid === undefined) return false;
  try {
    process.kill(-child.pid, signal);
    return true;
  } catch {
    return false;
  }
}
