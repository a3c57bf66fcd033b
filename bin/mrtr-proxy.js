#!/usr/bin/env node
import { main } from '../dist/src/cli/main.js';

main(process.argv.slice(2), process.env).catch((err) => {
  process.stderr.write(`mrtr-proxy: ${err?.stack ?? err}\n`);
  process.exit(1);
});
