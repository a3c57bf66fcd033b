// Runs the bridge contract against every combination of upstream transport (stdio, Streamable
// HTTP, HTTP+SSE, WebSocket) and front (HTTP, stdio), each with its own proxy and legacy fixture,
// four combinations at a time: most of a combination's time is its processes starting and waiting.
import { describe } from 'node:test';
import { defineContract } from './contract.js';
import { COMBINATIONS } from './fronts.js';

describe('the bridge contract', { concurrency: 4 }, () => {
  for (const [upstream, front] of COMBINATIONS) {
    defineContract(upstream, front);
  }
});
