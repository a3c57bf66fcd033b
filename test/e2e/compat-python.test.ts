// The Python stacks most legacy servers run on, each feature compared with what the server's own
// legacy client gets (support/feature-suite.ts): mcp 1.29.0's FastMCP, fastmcp 2.13.3 (on mcp
// 1.22.0) and fastmcp 4.0.10 (both eras on one endpoint; its Context has no sampling or roots
// calls), over stdio and Streamable HTTP. Installed from wheels by scripts/python-stacks.mjs; a
// missing stack is SKIPPED with a line saying why.
import { featureSuite } from '../support/feature-suite.js';
import type { FeatureCase } from '../support/compat-features.js';
import { PY_FIXTURES, type PythonStack, pythonOf, startPythonHttp } from '../support/python.js';

/** The features both fixtures serve, under the same tool names. */
const CASES: FeatureCase[] = [
  { feature: 'tools', call: { tool: 'log_three' }, shows: /logged three lines/ },
  { feature: 'elicitation', call: { tool: 'ask_name' }, shows: /hello Ada/ },
  { feature: 'sampling', call: { tool: 'summarize', arguments: { text: 'a long text' } }, shows: /model said: sampled text/ },
  { feature: 'roots during a call', call: { tool: 'list_roots' }, shows: /file:\/\/\/work\/project/ },
  { feature: 'logs', call: { tool: 'log_three' }, shows: /logged three lines/ },
  { feature: 'progress', call: { tool: 'log_three' }, shows: /logged three lines/ },
  { feature: 'resources', call: { resource: 'notes://greeting' }, shows: /hello from/ },
  { feature: 'prompts', call: { prompt: 'review', arguments: { code: 'x = 1' } }, shows: /Please review: x = 1/ },
];

function stack(label: string, py: PythonStack, script: string, cases = CASES): void {
  const python = pythonOf(py, `e2e/compat-python (${label})`);
  const skip = python === undefined && `the ${py} stack is not installed (SKIPPED line above)`;
  featureSuite({
    name: `${label} over stdio: directly and through the proxy`,
    skip,
    start: async () => ({ target: { command: python!, args: [`${PY_FIXTURES}${script}`] }, proxyArgs: ['--', python!, `${PY_FIXTURES}${script}`] }),
    cases,
  });
  featureSuite({
    name: `${label} over Streamable HTTP: directly and through the proxy`,
    skip,
    start: async () => {
      const server = await startPythonHttp(python!, script);
      return { target: { url: server.url }, proxyArgs: ['--upstream', server.url], stop: () => server.stop() };
    },
    cases,
  });
}

stack('mcp 1.29.0 FastMCP', 'mcp1', 'mcp1_server.py');
stack('fastmcp 2.13.3', 'fastmcp2', 'fastmcp2_server.py');
stack(
  'fastmcp 4.0.10',
  'fastmcp4',
  'fastmcp4_server.py',
  CASES.filter((c) => c.feature !== 'sampling' && c.feature !== 'roots during a call'),
);
