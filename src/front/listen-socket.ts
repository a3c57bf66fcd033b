// The HTTP front's listening socket, bound before anything else starts (the legacy children
// included), so that a port that is taken fails the start at once, with no child started. The
// front serves on it once the proxy is ready; a client that connects meanwhile waits and is
// served then. Only node:net: the CLI binds it before the rest of the proxy loads.
import { createServer, type Server, type Socket } from 'node:net';

/** Connections that arrive before the front serves and wait for it; more are closed. */
const WAITING_CONNECTIONS = 64;

export interface ListenSocket {
  /** The bound socket: the front's server listens on it (`server.listen(socket.server)`). */
  readonly server: Server;
  /** Hands the connections that arrived before the front to `serve`, and every later one is the front's. */
  handOver(serve: (socket: Socket) => void): void;
  /** Closes a socket no front took (a start that failed). */
  close(): void;
}

/** Binds `host:port` (port 0: any free one); rejects with the listen error (EADDRINUSE, EACCES, ...). */
export async function bindListenSocket(host: string, port: number): Promise<ListenSocket> {
  const early = new Set<Socket>();
  const waiting = (socket: Socket) => {
    if (early.size >= WAITING_CONNECTIONS) socket.destroy();
    else early.add(socket.once('close', () => early.delete(socket)));
  };
  const server = createServer({ pauseOnConnect: true }, waiting);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  let taken = false;
  return {
    server,
    handOver(serve) {
      taken = true;
      server.off('connection', waiting);
      const waited = [...early];
      early.clear();
      for (const socket of waited) {
        socket.resume();
        serve(socket);
      }
    },
    close() {
      if (taken) return;
      for (const socket of early) socket.destroy();
      server.close();
    },
  };
}

/** The listen error in words, with what to do for the usual causes. */
export function listenFailure(host: string, port: number, err: NodeJS.ErrnoException): string {
  const where = `cannot listen on ${host}:${port}`;
  if (err.code === 'EADDRINUSE')
    return `${where}: the port is in use (another mrtr-proxy, or another program); choose another with --port N (npm start: PORT=N npm start), or --port 0 for any free port`;
  if (err.code === 'EACCES') return `${where}: permission denied (ports below 1024 need privileges); choose a port of 1024 or above`;
  if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND') return `${where}: no such local address; check --host`;
  return `${where}: ${err.message}`;
}
