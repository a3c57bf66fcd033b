#!/usr/bin/env node
// The command runs the bundle of dist/src/cli/main.js (scripts/bundle-bin.mjs: much faster to
// load); a build without it (plain tsc) runs the modules themselves.
import { existsSync } from 'node:fs';

const bundle = new URL('../dist/bin/main.js', import.meta.url);
const { main } = await import(existsSync(bundle) ? bundle.href : '../dist/src/cli/main.js');

main(process.argv.slice(2), process.env).catch((err) => {
  process.stderr.write(`mrtr-proxy: ${err?.stack ?? err}\n`);
  process.exit(1);
});
