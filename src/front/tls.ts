// HTTPS for the listener: the certificate and key are read at start and again on `reload()` (the
// CLI calls it on SIGHUP), so a renewed certificate needs no restart. A pair that cannot be read
// or does not load leaves the running one in place.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { RequestListener } from 'node:http';

export interface TlsFiles {
  certFile: string;
  keyFile: string;
}

function read(files: TlsFiles): { cert: Buffer; key: Buffer } {
  return { cert: readFileSync(files.certFile), key: readFileSync(files.keyFile) };
}

export function createTlsServer(files: TlsFiles, app: RequestListener): { server: Server; reload(): void } {
  const server = createServer(read(files), app);
  return {
    server,
    /** Throws when the new pair cannot be used; the old one stays. */
    reload() {
      server.setSecureContext(read(files));
    },
  };
}
