// A real nginx in front of proxy instances, for tests: its own generated configuration, a free
// loopback port, pid and temp paths in a temporary folder, plain round robin (no stickiness).
// Tests skip loudly (with the reason) when the binary is not installed.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findBinary, freePort } from './ports.js';
import { startProcess, type Running } from './processes.js';

export const NGINX = findBinary('nginx');
export const NO_NGINX = NGINX ? undefined : 'nginx is not installed (Debian package nginx-light; .ci/run installs it)';

export interface NginxProcess extends Running {
  /** The balanced MCP endpoint. */
  url: string;
}

export async function startNginx(backends: readonly number[]): Promise<NginxProcess> {
  if (!NGINX) throw new Error(NO_NGINX);
  const dir = mkdtempSync(join(tmpdir(), 'mrtr-nginx-'));
  const port = await freePort();
  const conf = `
${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log stderr notice;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream mrtr { ${backends.map((p) => `server 127.0.0.1:${p};`).join(' ')} }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://mrtr;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host:$server_port;
      proxy_buffering off;
      proxy_read_timeout 600s;
    }
  }
}
`;
  writeFileSync(join(dir, 'nginx.conf'), conf);
  const r = await startProcess(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', 'stderr'], /start worker process/);
  return { ...r, url: `http://127.0.0.1:${port}/mcp` };
}
