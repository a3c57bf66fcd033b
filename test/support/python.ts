// Python with the official 2026-07-28 SDK (`mcp` 2.3.0) for tests of generated Python servers:
// a venv under .cache/py-mcp2 installed from local wheels only (no package index), made once.
// Returns why it cannot be had (no python3, no wheels) for the test to skip loudly.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { findBinary } from './ports.js';
import { ROOT } from './processes.js';

export const MCP_PY_VERSION = '2.3.0';
const VENV = join(ROOT, '.cache', 'py-mcp2');
const WHEELS = process.env['MRTR_WHEELS'] ?? '/work/shared/wheels';

function hasSdk(python: string): boolean {
  try {
    return (
      execFileSync(python, ['-c', 'import importlib.metadata as m; print(m.version("mcp"))'], { encoding: 'utf8', stdio: 'pipe' }).trim() === MCP_PY_VERSION
    );
  } catch {
    return false;
  }
}

/** The venv's python with mcp 2.3.0, or `{ skip }` saying why there is none. */
export function pythonWithMcp2(): { python: string } | { skip: string } {
  const python = join(VENV, 'bin', 'python');
  if (existsSync(python) && hasSdk(python)) return { python };
  const system = findBinary('python3');
  if (!system) return { skip: 'no python3 on PATH' };
  if (!existsSync(join(WHEELS, `mcp-${MCP_PY_VERSION}-py3-none-any.whl`))) return { skip: `no mcp ${MCP_PY_VERSION} wheel in ${WHEELS} (set MRTR_WHEELS)` };
  try {
    execFileSync(system, ['-m', 'venv', VENV], { stdio: 'pipe' });
    execFileSync(join(VENV, 'bin', 'pip'), ['install', '-q', '--no-index', '--find-links', WHEELS, `mcp==${MCP_PY_VERSION}`], {
      stdio: 'pipe',
      env: { ...process.env, PIP_CONFIG_FILE: '/dev/null' },
      timeout: 300_000,
    });
  } catch (err) {
    return { skip: `cannot install mcp ${MCP_PY_VERSION} from ${WHEELS}: ${(err as Error).message}` };
  }
  return hasSdk(python) ? { python } : { skip: `mcp ${MCP_PY_VERSION} did not install into ${VENV}` };
}
