#!/usr/bin/env node
// What `npm test` fetches for the tests that drive it (scripts/run-tests.mjs --fetch runs this
// beside the unit ring): Node 22 and 24, the test-only npm packages, the Python stacks. They fill
// different folders of .cache and mostly wait on the registry, pip and a compiler, so they run
// side by side; each one's output goes through as it comes. Exits with the first failure's code, once all have ended.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const scripts = ['fetch-node.mjs', 'fetch-test-packages.mjs', 'python-stacks.mjs'];
const codes = await Promise.all(
  scripts.map(
    (script) =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, [fileURLToPath(new URL(script, import.meta.url))], { stdio: 'inherit' });
        child.on('error', (err) => {
          console.error(`fetch-for-tests: ${script}: ${err.message}`);
          resolve(1);
        });
        child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
      }),
  ),
);
process.exit(codes.find((c) => c !== 0) ?? 0);
