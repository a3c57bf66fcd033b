// A python3 process with N sleeping threads besides its main one (threads are cheap there): what
// the /proc reader must not slow down on. It ends when its stdin closes.
import { type ChildProcess, spawn } from 'node:child_process';

const script = (threads: number) => `import sys, threading
threading.stack_size(64 * 1024)
gate = threading.Event()
for _ in range(${threads}): threading.Thread(target=gate.wait, daemon=True).start()
print('ready', flush=True)
sys.stdin.read()`;

/** Starts it; resolves once every thread is started. */
export async function startThreaded(threads: number, stderr: 'inherit' | 'ignore'): Promise<ChildProcess> {
  const child = spawn('python3', ['-c', script(threads)], { stdio: ['pipe', 'pipe', stderr] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the threaded python3 exited with ${code}`)));
  });
  return child;
}
