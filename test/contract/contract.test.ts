// Runs the bridge contract against every combination of upstream transport (stdio, Streamable
// HTTP, HTTP+SSE, WebSocket) and front (HTTP, stdio), each with its own proxy and legacy fixture.
import { defineContract } from './contract.js';
import { COMBINATIONS } from './fronts.js';

for (const [upstream, front] of COMBINATIONS) {
  defineContract(upstream, front);
}
