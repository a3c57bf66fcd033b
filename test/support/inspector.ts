// The official MCP Inspector (2.12.0, a devDependency): its web UI's server, and its mcpdo CLI
// with a private daemon, each confined to a temporary HOME (catalog, secrets file) and free
// loopback ports, and stopped with every process it started.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { promisify } from 'node:util';
import { freePort } from './ports.js';
import { ROOT } from './processes.js';
import { descendants } from './process-tree.js';

const run = promisify(execFile);
/** Fetched into .cache by scripts/fetch-test-packages.mjs (npm test does it). */
const PACKAGE = `${ROOT}.cache/inspector/node_modules/@modelcontextprotocol/inspector/clients/`;
export const INSPECTOR_WEB = `${PACKAGE}launcher/build/index.js`;
export const MCPDO = `${PACKAGE}mcpdo/build/mcp-bin.js`;

/** Kills a process and everything it started (the web UI starts a server and a sandbox). */
async function stopTree(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const below = descendants(child.pid);
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  for (const d of below) {
    try {
      process.kill(d.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** The Inspector's web UI for the 2026-07-28 server at `serverUrl`; `url` opens it, token included. */
export async function startInspectorWeb(serverUrl: string, home: string): Promise<{ url: string; stop(): Promise<void> }> {
  const [client, sandbox, appOrigin, server] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const env = {
    ...process.env,
    HOME: home,
    MCP_INSPECTOR_SECRET_STORE: 'file',
    MCP_AUTO_OPEN_ENABLED: 'false',
    CLIENT_PORT: String(client),
    MCP_SANDBOX_PORT: String(sandbox),
    MCP_APP_ORIGIN_PORT: String(appOrigin),
    SERVER_PORT: String(server),
  };
  const child = spawn(process.execPath, [INSPECTOR_WEB, '--web', '--transport', 'http', '--server-url', serverUrl, '--protocol-era', 'modern'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const token = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the Inspector web UI did not start:\n${out}`)), 60_000);
    const read = (d: Buffer) => {
      out += d.toString();
      const m = /Auth token: ([0-9a-f]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the Inspector web UI exited with ${code}:\n${out}`));
    });
  }).catch(async (err: unknown) => {
    await stopTree(child);
    throw err;
  });
  return { url: `http://127.0.0.1:${client}/?MCP_INSPECTOR_API_TOKEN=${token}`, stop: () => stopTree(child) };
}

/** mcpdo with a private daemon (`mcpdo private`) under `home`; `json` runs one command with --format json. */
export async function mcpdo(home: string): Promise<{ json(...args: string[]): Promise<Record<string, unknown>>; stop(): Promise<void> }> {
  const base = { ...process.env, HOME: home, MCP_INSPECTOR_SECRET_STORE: 'file' };
  const { stdout } = await run(process.execPath, [MCPDO, 'private'], { env: base, timeout: 30_000 });
  const env: NodeJS.ProcessEnv = { ...base };
  for (const m of stdout.matchAll(/export ([A-Z_]+)=['"]?([^'"\n]+)['"]?/g)) env[m[1]!] = m[2]!;
  if (!env['MCP_INSPECTOR_DAEMON_DIR']) throw new Error(`mcpdo private printed no daemon settings: ${stdout}`);
  return {
    async json(...args) {
      const r = await run(process.execPath, [MCPDO, '--format', 'json', ...args], { env, timeout: 60_000 }).catch(
        (err: { stdout?: string; stderr?: string }) => err,
      );
      const text = r.stdout?.trim() || r.stderr?.trim() || '';
      return JSON.parse(text.slice(text.indexOf('{'))) as Record<string, unknown>;
    },
    async stop() {
      await run(process.execPath, [MCPDO, 'daemon', 'stop'], { env, timeout: 30_000 }).catch((err: Error) =>
        process.stderr.write(`mcpdo daemon stop failed: ${err.message}\n`),
      );
      rmSync(env['MCP_INSPECTOR_DAEMON_DIR']!, { recursive: true, force: true });
    },
  };
}
