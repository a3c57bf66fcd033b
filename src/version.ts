// The proxy's version, read once from package.json: --version, --help, and the clientInfo the
// proxy sends upstream. package.json is the one place the version is written.
import { readFileSync } from 'node:fs';

/**
 * This module runs as dist/src/version.js, both in the repository and in an installed package
 * (npm always packs package.json), so package.json is two folders up. One folder up covers running
 * the TypeScript source directly.
 */
const CANDIDATES = ['../../package.json', '../package.json'];

function readVersion(): string {
  for (const candidate of CANDIDATES) {
    const url = new URL(candidate, import.meta.url);
    let pkg: { name?: unknown; version?: unknown };
    try {
      pkg = JSON.parse(readFileSync(url, 'utf8')) as typeof pkg;
    } catch {
      continue;
    }
    if (pkg.name === 'mrtr-proxy' && typeof pkg.version === 'string') return pkg.version;
  }
  throw new Error(`mrtr-proxy: cannot find its package.json (looked at ${CANDIDATES.map((c) => new URL(c, import.meta.url).pathname).join(', ')})`);
}

export const VERSION: string = readVersion();

/** Who the proxy is when it talks to an upstream (clientInfo / Implementation). */
export const CLIENT_INFO: Readonly<{ name: string; version: string }> = Object.freeze({ name: 'mrtr-proxy', version: VERSION });
