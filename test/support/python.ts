// The Python MCP stacks real servers and clients run on, installed by scripts/python-stacks.mjs
// into venvs under .cache from wheels (no package index). A test whose stack is missing (no
// python3, no wheels) is skipped with a SKIPPED line, never passed, and fails in CI (skip.ts).
import { existsSync } from 'node:fs';
import { freePort } from './ports.js';
import { ROOT, startProcess, type Running } from './processes.js';
import { skipOrFail } from './skip.js';

/** The venvs scripts/python-stacks.mjs makes: fastmcp 2.13.3, mcp 1.29.0 (+ time and git servers), mcp 2.3.0, fastmcp 4.0.10. */
export type PythonStack = 'fastmcp2' | 'mcp1' | 'mcp2' | 'fastmcp4';

export const PY_FIXTURES = `${ROOT}test/fixtures/python/`;

/** The venv's interpreter, or undefined after skipOrFail for `file` (call it where tests are declared). */
export function pythonOf(stack: PythonStack, file: string): string | undefined {
  const python = `${ROOT}.cache/py-${stack}/bin/python`;
  if (existsSync(python)) return python;
  skipOrFail(
    file,
    `the Python stack ${stack} is not installed in .cache/py-${stack} (needs python3 and the wheels; run: node scripts/python-stacks.mjs, npm test does)`,
  );
  return undefined;
}

/** A venv's console script (mcp-server-time, ...). */
export function pythonScript(stack: PythonStack, name: string): string {
  return `${ROOT}.cache/py-${stack}/bin/${name}`;
}

/** Starts a Python fixture server over Streamable HTTP on a free loopback port; resolves with its /mcp URL. */
export async function startPythonHttp(python: string, script: string, extra: string[] = []): Promise<Running & { url: string }> {
  const port = await freePort();
  const p = await startProcess(python, [`${PY_FIXTURES}${script}`, 'http', String(port), ...extra], /Uvicorn running on (http:\/\/127\.0\.0\.1:\d+)/, {
    timeoutMs: 30_000,
  });
  return { ...p, url: `${p.ready}/mcp` };
}

/** The official 2026-07-28 Python SDK of the `mcp2` stack, which generated Python servers are built and run on. */
export const MCP_PY_VERSION = '2.3.0';

/** The `mcp2` stack's interpreter, or `{ skip }` saying why there is none (for skipOrFail). */
export function pythonWithMcp2(): { python: string } | { skip: string } {
  const python = `${ROOT}.cache/py-mcp2/bin/python`;
  if (existsSync(python)) return { python };
  return {
    skip: `the Python stack mcp2 (mcp ${MCP_PY_VERSION}) is not installed in .cache/py-mcp2 (needs python3 and the wheels; run: node scripts/python-stacks.mjs, npm test does)`,
  };
}
