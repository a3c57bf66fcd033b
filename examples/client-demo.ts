// A 2026-07-28 client (official SDK, @modelcontextprotocol/client 2.x) talking to the legacy demo
// server through mrtr-proxy.
//
//   npm start                                   (in one terminal)
//   node dist/examples/client-demo.js [URL]     (in another; URL defaults to http://127.0.0.1:8080/mcp)
//
// The client never sees a server-to-client request. When the legacy server asks something
// mid-call, the proxy answers the call with `input_required`; the SDK then runs the handlers
// registered below (the same ones a 2025 client would use) and retries the call with the
// answers. `client.callTool()` only returns once the tool is done, however many rounds it took.
import { pathToFileURL } from 'node:url';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';

export const DEFAULT_URL = 'http://127.0.0.1:8080/mcp';

/** The canned "user": what we type into each form field the server asks for. */
const FORM_ANSWERS: Record<string, unknown> = {
  partySize: 4,
  time: '19:30',
  confirm: true,
  days: 5,
  budget: 'comfortable',
  addIdea: true,
  notes: 'window seat on the train, please',
};

export interface DemoRun {
  /** The text of each tool's result, by tool name. */
  results: Record<string, string>;
  /** The tools the server listed. */
  tools: string[];
  /** How often each client-side handler ran, by method (= questions answered across all rounds). */
  asked: Record<string, number>;
  /** input_required rounds each tool needed (HTTP retries of its tools/call). */
  rounds: Record<string, number>;
  prompt: string;
  resource: string;
}

export interface DemoOptions {
  /** Where progress lines go (default: stdout). */
  print?: (line: string) => void;
  /** The roots to offer the server (default: the current directory). */
  roots?: { uri: string; name?: string }[];
}

const textOf = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');

const indent = (s: string) => s.replace(/^/gm, '    ');

export async function runClientDemo(url: string = DEFAULT_URL, opts: DemoOptions = {}): Promise<DemoRun> {
  const print = opts.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  const roots = opts.roots ?? [{ uri: pathToFileURL(process.cwd()).href, name: 'current directory' }];
  const asked: Record<string, number> = {};
  const count = (method: string) => {
    asked[method] = (asked[method] ?? 0) + 1;
  };

  const client = new Client(
    { name: 'mrtr-client-demo', version: '1.0.0' },
    {
      // Declared per request on 2026-07-28: the proxy only forwards what we declare here.
      capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
    },
  );

  // A form elicitation: fill in every field we have an answer for.
  client.setRequestHandler('elicitation/create', async (request) => {
    count('elicitation/create');
    print(`  ? server asks: ${request.params.message}`);
    if (request.params.mode === 'url') return { action: 'decline' };
    const content: Record<string, string | number | boolean> = {};
    for (const field of Object.keys(request.params.requestedSchema.properties)) {
      const value = FORM_ANSWERS[field];
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') content[field] = value;
    }
    print(`    > we answer: ${JSON.stringify(content)}`);
    return { action: 'accept', content };
  });

  // Sampling: a real host would call its LLM here.
  client.setRequestHandler('sampling/createMessage', async (request) => {
    count('sampling/createMessage');
    const last = request.params.messages.at(-1)?.content;
    const prompt = last && !Array.isArray(last) && last.type === 'text' ? last.text : '(non-text prompt)';
    print(`  ? server wants the model to answer: ${prompt.split('\n')[0]}`);
    const reply = prompt.startsWith('Summarize') ? 'A legacy server and a modern client got along thanks to a proxy.' : 'Take the funicular up at sunset.';
    print(`    > the "model" says: ${reply}`);
    return { model: 'canned-model-1', role: 'assistant', content: { type: 'text', text: reply } };
  });

  client.setRequestHandler('roots/list', async () => {
    count('roots/list');
    print(`  ? server asks for our roots; we share ${roots.map((r) => r.uri).join(', ')}`);
    return { roots };
  });

  // Count the POSTs of each tools/call (the Mcp-Name header names the tool): every one after the
  // first is a retry carrying answers, i.e. one input_required round.
  const posts: Record<string, number> = {};
  const counting: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    if (headers.get('mcp-method') === 'tools/call') {
      const name = headers.get('mcp-name') ?? '?';
      posts[name] = (posts[name] ?? 0) + 1;
    }
    return fetch(input, init);
  };

  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: counting }));
  try {
    const server = client.getServerVersion();
    print(`Connected to ${server?.name ?? '?'} ${server?.version ?? ''} via ${url} (protocol ${client.getNegotiatedProtocolVersion() ?? '?'})`);

    const { tools } = await client.listTools();
    print(`Tools: ${tools.map((t) => t.name).join(', ')}`);

    const calls: [string, Record<string, unknown>][] = [
      ['add', { a: 2, b: 40 }],
      ['book_table', { name: 'Ada' }],
      ['summarize', { text: 'mrtr-proxy lets 2026-07-28 clients use 2025 servers that ask questions mid-call.' }],
      ['project_files', {}],
      ['plan_trip', { destination: 'Lisbon' }],
    ];
    const results: Record<string, string> = {};
    for (const [name, args] of calls) {
      print(`\n> tools/call ${name} ${JSON.stringify(args)}`);
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      results[name] = textOf(result);
      const rounds = (posts[name] ?? 1) - 1;
      print(`  = ${result.isError ? 'ERROR ' : ''}result after ${rounds} input_required round${rounds === 1 ? '' : 's'}:\n${indent(results[name])}`);
    }

    print('\n> prompts/get dinner_invite');
    const prompt = await client.getPrompt({ name: 'dinner_invite', arguments: { friend: 'Grace', time: '19:30' } });
    const first = prompt.messages[0]?.content;
    const promptText = first && first.type === 'text' ? first.text : '';
    print(indent(promptText));

    print('\n> resources/read demo://trattoria/menu');
    const read = await client.readResource({ uri: 'demo://trattoria/menu' });
    const contents = read.contents[0];
    const resource = contents && 'text' in contents ? contents.text : '';
    print(indent(resource));

    const rounds = Object.fromEntries(calls.map(([name]) => [name, (posts[name] ?? 1) - 1]));
    return { results, tools: tools.map((t) => t.name), asked, rounds, prompt: promptText, resource };
  } finally {
    await client.close();
  }
}

// Run as a script (not when imported by the tests).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runClientDemo(process.argv[2] ?? DEFAULT_URL).then(
    (run) => {
      const total = Object.values(run.asked).reduce((a, b) => a + b, 0);
      process.stdout.write(`\nDone: ${Object.keys(run.results).length} tools called, ${total} questions answered through input_required rounds.\n`);
    },
    (err: unknown) => {
      process.stderr.write(`client-demo failed: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
