// Questions sent untied over Streamable HTTP (see test/e2e/untied-questions.test.ts), judged only
// on what every user gets: their own answer, without a refusal, also when one legacy session in
// four answers its GET stream late, and when many users answer at once. How many sessions a burst
// starts, which a loaded machine changes, is counted there, alone.
import { after, describe, it } from 'node:test';
import { startHttpFixture, startProxy, type ProxyProcess, type Running } from '../support/processes.js';
import { assertOwnAnswers, flows } from '../support/untied-flows.js';

describe('questions sent untied over Streamable HTTP, every user answered', () => {
  const running: Array<Running | ProxyProcess> = [];
  after(async () => {
    for (const p of running.reverse()) await p.stop();
  });

  it('completes 3 waves of 200 on fresh sessions when one session in four answers its GET stream late', { timeout: 180_000 }, async () => {
    // 1.5 s: longer than any fixed bound short enough not to stall a healthy server's calls.
    const upstream = await startHttpFixture({}, ['--get-delay', '1500', '--late-get-every', '4']);
    running.push(upstream);
    for (let wave = 0; wave < 3; wave++) {
      const proxy = await startProxy(['--upstream', upstream.url, '--spare-sessions', '0']);
      try {
        const { replies } = await flows(proxy, 'ask-unrelated', 200, 'v');
        assertOwnAnswers(replies, (i) => `unrelated answer: user-${i}`);
      } finally {
        await proxy.stop();
      }
    }
  });

  it('lets 20 users answer at once with default flags, on a tool that asks tied or untied', { timeout: 60_000 }, async () => {
    const upstream = await startHttpFixture();
    running.push(upstream);
    const proxy = await startProxy(['--upstream', upstream.url]);
    running.push(proxy);
    const untied = await flows(proxy, 'ask-unrelated', 20, 'v');
    assertOwnAnswers(untied.replies, (i) => `unrelated answer: user-${i}`);
    const tied = await flows(proxy, 'ask-name', 20, 'name', (i) => ({ greeting: `g${i}` }));
    assertOwnAnswers(tied.replies, (i) => `g${i}, user-${i}!`);
  });
});
