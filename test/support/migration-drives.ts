// What the migration tests do through the proxy with each legacy server: the calls audited, and
// the same calls again for the shadow run (answers decided by the question, so both runs agree).
import { ALL_CLIENT_CAPS, connectClient } from './client.js';
import { EVERYTHING, FIXTURE, ROOT } from './processes.js';

export const FIXTURE_SERVER = [process.execPath, FIXTURE];
export const DEMO_SERVER = [process.execPath, `${ROOT}dist/examples/demo-server.js`];
export const EVERYTHING_SERVER = [process.execPath, EVERYTHING, 'stdio'];
export const DEMO_ASKING = ['book_table', 'summarize', 'project_files', 'plan_trip'];
// get-roots-list asks nothing inside its call through the proxy: everything asks for the roots right
// after initialize, the proxy asks the caller for them in a roots round before the call, and the tool
// reads what its session was given (docs/roots.md). Its result names the roots, so the report judges
// that it reads them and its handler asks for them in round 1.
export const EVERYTHING_ASKING = ['get-roots-list', 'trigger-elicitation-request', 'trigger-sampling-request'];
/** The tools of EVERYTHING_ASKING judged to read the roots everything asks for at initialize. */
export const EVERYTHING_READS_ROOTS = ['get-roots-list'];

/** The fixture's asking tools with the arguments they were audited with. */
export const FIXTURE_CALLS: Array<[string, Record<string, unknown>]> = [
  ['ask-name', {}],
  ['ask-twice', {}],
  ['ask-if', { ask: true }],
  ['ask-if', { ask: false }],
  ['ask-all', {}],
  ['summarize', { text: 'x' }],
  ['list-roots', {}],
  ['elicit-then-sample', {}],
  ['ask-url', {}],
  ['echo', { text: 'e' }],
];

/** The URIs of the fixture's asking template (fixture://note/{id}) that driveFixture reads. */
export const FIXTURE_NOTES = ['fixture://note/7', 'fixture://note/8'];

export async function driveFixture(url: string): Promise<void> {
  const client = await connectClient(url);
  try {
    for (const [name, args] of FIXTURE_CALLS) await client.callTool({ name, arguments: args });
    await client.getPrompt({ name: 'greet', arguments: {} });
    await client.readResource({ uri: 'fixture://secret' });
    // Two reads of one template: one handler, asked the same question for either URI.
    for (const uri of FIXTURE_NOTES) await client.readResource({ uri });
  } finally {
    await client.close();
  }
}

/** book_table accepted, book_table declined, then the other asking tools: six calls. */
export async function driveDemo(url: string): Promise<void> {
  let declineBooking = false;
  const client = await connectClient(url, ALL_CLIENT_CAPS, {
    elicit: (p) => {
      const message = String(p['message']);
      if (message.startsWith('How many people')) return declineBooking ? { action: 'decline' } : { action: 'accept', content: { partySize: 2, time: '19:30' } };
      if (message.startsWith('Book a table')) return { action: 'accept', content: { confirm: true } };
      if (message.startsWith('Trip to')) return { action: 'accept', content: { days: 3, budget: 'comfortable' } };
      return { action: 'accept', content: { addIdea: true } };
    },
  });
  try {
    await client.callTool({ name: 'book_table', arguments: { name: 'Ada' } });
    declineBooking = true;
    await client.callTool({ name: 'book_table', arguments: {} });
    await client.callTool({ name: 'summarize', arguments: { text: 'A long text.' } });
    await client.callTool({ name: 'project_files', arguments: {} });
    await client.callTool({ name: 'plan_trip', arguments: { destination: 'Rome' } });
    await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
  } finally {
    await client.close();
  }
}

// One legacy session, made for the first call: everything asks for the roots once per session,
// right after it starts.
export const ONE_SESSION = ['--spare-sessions', '0'];

export async function driveEverything(url: string): Promise<void> {
  const client = await connectClient(url, ALL_CLIENT_CAPS, {
    elicit: () => ({ action: 'accept', content: { name: 'Ada' } }),
  });
  try {
    await client.callTool({ name: 'get-roots-list', arguments: {} });
    await client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
    await client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'hello', maxTokens: 10 } });
    await client.callTool({ name: 'echo', arguments: { message: 'x' } });
  } finally {
    await client.close();
  }
}
