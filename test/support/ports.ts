// A free loopback port for a server the test starts itself (redis-server, nginx). The port is
// found by binding port 0 and closing: another process could take it in between, which the
// starting server then reports as an error rather than a silent pass.
import { createServer } from 'node:net';
import { execFileSync } from 'node:child_process';

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The path of an executable on PATH or in the usual sbin folders, or undefined. */
export function findBinary(name: string): string | undefined {
  for (const dir of (process.env['PATH'] ?? '').split(':').concat(['/usr/sbin', '/usr/local/sbin', '/sbin'])) {
    try {
      execFileSync('test', ['-x', `${dir}/${name}`]);
      return `${dir}/${name}`;
    } catch {
      /* not here */
    }
  }
  return undefined;
}
