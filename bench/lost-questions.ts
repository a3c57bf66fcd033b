// Issue 14, item 1, measured: N concurrent interactive calls over a legacy Streamable HTTP upstream,
// each to a tool that asks without tying its question to the call (the v1 SDK sends it on the
// standalone GET stream). Counts calls whose question was lost (the fixture reports "lost" when no
// GET stream was open) or never answered (hung: the question went nowhere), and checks every answer
// reached its own call. Not part of `npm run bench`
// (it is a correctness count, not a ratio); run it by hand:
//
//   npm run build && node dist/bench/lost-questions.js [--calls 5000]
import { ProxyClient } from './lib/http.js';
import { Scope } from './lib/procs.js';

const argv = process.argv.slice(2);
const calls = Number(argv[argv.indexOf('--calls') + 1] ?? 5000) || 5000;

async function main(): Promise<void> {
  const scope = new Scope();
  try {
    const fixture = await scope.fixtureHttp();
    const proxy = await scope.proxy(['--upstream', fixture.url, '--max-sessions', String(calls), '--session-wait', '120', '--waiting-share', '100']);
    const client = new ProxyClient(proxy.url, { elicitation: { form: {} } });
    const params = { name: 'ask-unrelated', arguments: {} };
    const started = Date.now();
    const outcomes = await Promise.all(
      Array.from({ length: calls }, async (_, i) => {
        const first = await client.tool(params.name, params.arguments);
        if (first['resultType'] !== 'input_required') {
          const said = String(first['content']?.[0]?.text);
          return said.startsWith('lost') ? `lost: ${said}` : `failed: ${JSON.stringify(first).slice(0, 120)}`;
        }
        const key = Object.keys(first['inputRequests'])[0]!;
        const done = await client.tool(params.name, params.arguments, {
          requestState: first['requestState'],
          inputResponses: { [key]: { action: 'accept', content: { v: `v${i}` } } },
        });
        const text = String(done['content']?.[0]?.text);
        return text === `unrelated answer: v${i}` ? 'ok' : `wrong: ${text}`;
      })
        .map((p) => Promise.race([p, new Promise<string>((resolve) => setTimeout(() => resolve('hung: no outcome within 90 s'), 90_000).unref())]))
        .map((p) => p.catch((err: Error) => `failed: ${err.message.slice(0, 120)}`)),
    );
    const count = (prefix: string) => outcomes.filter((o) => o.startsWith(prefix)).length;
    console.log(
      JSON.stringify({
        calls,
        ok: count('ok'),
        lost: count('lost'),
        wrong: count('wrong'),
        failed: count('failed'),
        hung: count('hung'),
        seconds: (Date.now() - started) / 1000,
      }),
    );
    const sample = outcomes.find((o) => o !== 'ok');
    if (sample) console.log('first problem:', sample);
  } finally {
    await scope.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
