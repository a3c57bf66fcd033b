// mrtr-demo: a small *legacy* MCP server (protocol 2025-11-25, v1 SDK) for trying out mrtr-proxy.
//
// It is written the way most existing servers are: a tool handler simply awaits
// `elicitInput`, `createMessage` or `listRoots`, which sends a request back to the client in the
// middle of the call. A 2026-07-28 client cannot receive such requests. mrtr-proxy sits in front
// of this server and turns each of them into an `input_required` result; when the client retries
// with `inputResponses`, the proxy hands the answers back to the handler below, which carries on
// as if nothing had happened.
//
// Run it through the proxy (after `npm run build`):
//   node bin/mrtr-proxy.js --port 8080 -- node dist/examples/demo-server.js
// or simply `npm start`.
//
// It speaks MCP on stdin/stdout, so every log line goes to stderr.
import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

const log = (message: string) => process.stderr.write(`[mrtr-demo ${process.pid}] ${message}\n`);
const text = (t: string): CallToolResult => ({ content: [{ type: 'text', text: t }] });

/**
 * Options for every request this server sends to the client mid-call.
 * - `relatedRequestId` ties the request to the tool call (required on Streamable HTTP; harmless
 *   on stdio).
 * - `timeout`: the v1 SDK gives up after 60 s by default. Behind the proxy a *human* answers
 *   the question, possibly minutes later, so wait up to 10 minutes.
 */
const asking = (extra: Extra) => ({ relatedRequestId: extra.requestId, timeout: 600_000 });

/** The text of a sampling reply (ignores images, audio and tool calls). */
function sampledText(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks
    .map((b) => (typeof b === 'object' && b !== null && (b as { type?: unknown }).type === 'text' ? String((b as { text?: unknown }).text) : ''))
    .join('')
    .trim();
}

const MENU = `Trattoria MCP: tonight's menu
- Bruschetta al pomodoro ........ 7
- Risotto ai funghi ............ 16
- Pizza margherita .............. 12
- Tiramisu ....................... 6
Open 18:00 to 23:00. Tables for up to 12 people.`;

function createDemoServer(): McpServer {
  const mcp = new McpServer(
    { name: 'mrtr-demo', version: '1.0.0' },
    { instructions: 'A demo legacy server: book a table, summarize text, look at your project, plan a trip, add numbers.' },
  );
  // The low-level Server: elicitInput, createMessage and listRoots live here.
  const server = mcp.server;

  // --- add: no interaction at all. The proxy just passes the call through. -----------------
  mcp.registerTool(
    'add',
    { title: 'Add two numbers', description: 'Adds a and b. No questions asked.', inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }) => text(`${a} + ${b} = ${a + b}`),
  );

  // --- book_table: form elicitation, twice (two rounds). ------------------------------------
  mcp.registerTool(
    'book_table',
    {
      title: 'Book a table',
      description: 'Books a table at Trattoria MCP. Asks you for the party size and time, then for a confirmation.',
      inputSchema: { name: z.string().optional().describe('Name for the reservation') },
    },
    async ({ name }, extra) => {
      // Round 1: a form. The proxy turns this into input_required with one inputRequest.
      const details = await server.elicitInput(
        {
          message: 'How many people, and at what time?',
          requestedSchema: {
            type: 'object',
            properties: {
              partySize: { type: 'integer', title: 'Party size', minimum: 1, maximum: 12 },
              time: { type: 'string', title: 'Time (HH:MM)', description: 'Between 18:00 and 23:00' },
            },
            required: ['partySize', 'time'],
          },
        },
        asking(extra),
      );
      if (details.action !== 'accept' || !details.content) return text(`No booking made (you chose "${details.action}").`);
      const partySize = Number(details.content['partySize']);
      const time = String(details.content['time']);
      log(`book_table: ${partySize} people at ${time}`);

      // Round 2: the handler simply continues and asks again; the client sees a second input_required.
      const confirm = await server.elicitInput(
        {
          message: `Book a table for ${partySize} at ${time}${name ? ` under "${name}"` : ''}?`,
          requestedSchema: {
            type: 'object',
            properties: { confirm: { type: 'boolean', title: 'Confirm the booking', default: true } },
            required: ['confirm'],
          },
        },
        asking(extra),
      );
      if (confirm.action !== 'accept' || confirm.content?.['confirm'] !== true) return text('Booking cancelled, no table reserved.');
      const ref = `TBL-${String(partySize).padStart(2, '0')}${time.replace(/\D/g, '')}`;
      return {
        content: [{ type: 'text', text: `Booked: a table for ${partySize} at ${time}${name ? ` for ${name}` : ''}. Reference ${ref}.` }],
        structuredContent: { partySize, time, reference: ref },
      };
    },
  );

  // --- summarize: sampling (the client's LLM writes the summary). ---------------------------
  mcp.registerTool(
    'summarize',
    { title: 'Summarize text', description: "Summarizes text with the client's model (sampling).", inputSchema: { text: z.string() } },
    async ({ text: input }, extra) => {
      const reply = await server.createMessage(
        {
          systemPrompt: 'You write one-sentence summaries.',
          messages: [{ role: 'user', content: { type: 'text', text: `Summarize in one sentence:\n\n${input}` } }],
          maxTokens: 200,
        },
        asking(extra),
      );
      return text(`Summary (by ${reply.model}): ${sampledText(reply.content) || '(empty)'}`);
    },
  );

  // --- project_files: roots/list (where is the user's project?). -----------------------------
  mcp.registerTool(
    'project_files',
    { title: 'Project files', description: "Lists the client's roots and a few files in each local one (roots/list)." },
    async (extra) => {
      const { roots } = await server.listRoots(undefined, asking(extra));
      if (roots.length === 0) return text('The client shared no roots.');
      const lines: string[] = [];
      for (const root of roots) {
        lines.push(`${root.name ?? 'root'}: ${root.uri}`);
        if (!root.uri.startsWith('file://')) continue;
        try {
          const entries = (await readdir(fileURLToPath(root.uri))).sort();
          lines.push(...entries.slice(0, 8).map((e) => `  - ${e}`));
          if (entries.length > 8) lines.push(`  ... and ${entries.length - 8} more`);
        } catch (err) {
          lines.push(`  (cannot read it here: ${(err as NodeJS.ErrnoException).code ?? 'error'})`);
        }
      }
      return text(lines.join('\n'));
    },
  );

  // --- plan_trip: elicitation and sampling in parallel, then a follow-up (multiple rounds). --
  mcp.registerTool(
    'plan_trip',
    {
      title: 'Plan a trip',
      description: 'Asks for trip details while brainstorming ideas with your model at the same time, then asks a follow-up.',
      inputSchema: { destination: z.string().describe('Where to go') },
    },
    async ({ destination }, extra) => {
      // Both requests are in flight at once: the proxy gathers them into ONE input_required
      // round with two inputRequests, and the client answers both in one retry.
      const [prefs, ideas] = await Promise.all([
        server.elicitInput(
          {
            message: `Trip to ${destination}: how long, and what is your budget?`,
            requestedSchema: {
              type: 'object',
              properties: {
                days: { type: 'integer', title: 'Days', minimum: 1, maximum: 30 },
                budget: { type: 'string', title: 'Budget', enum: ['shoestring', 'comfortable', 'luxury'] },
              },
              required: ['days', 'budget'],
            },
          },
          asking(extra),
        ),
        server.createMessage(
          {
            messages: [{ role: 'user', content: { type: 'text', text: `Suggest one must-do activity in ${destination}.` } }],
            maxTokens: 100,
          },
          asking(extra),
        ),
      ]);
      if (prefs.action !== 'accept' || !prefs.content) return text(`Trip planning stopped (you chose "${prefs.action}").`);
      const days = Number(prefs.content['days']);
      const budget = String(prefs.content['budget']);
      const idea = (sampledText(ideas.content) || 'wander around').replace(/[.!\s]+$/, '');

      // A later round, depending on the first answers.
      const follow = await server.elicitInput(
        {
          message: `${days} days in ${destination} (${budget}). Idea: "${idea}". Shall I add that to the plan?`,
          requestedSchema: {
            type: 'object',
            properties: { addIdea: { type: 'boolean', title: 'Add the idea' }, notes: { type: 'string', title: 'Anything else?' } },
            required: ['addIdea'],
          },
        },
        asking(extra),
      );
      const addIdea = follow.action === 'accept' && follow.content?.['addIdea'] === true;
      const notes = follow.action === 'accept' && typeof follow.content?.['notes'] === 'string' ? follow.content['notes'] : '';
      const plan = [
        `Trip plan: ${days} days in ${destination}, ${budget} budget.`,
        addIdea ? `Must do: ${idea}` : 'No must-do activity added.',
        ...(notes ? [`Notes: ${notes}`] : []),
      ];
      return text(plan.join('\n'));
    },
  );

  // --- A prompt (no interaction) and a resource. ---------------------------------------------
  mcp.registerPrompt(
    'dinner_invite',
    {
      title: 'Dinner invitation',
      description: 'Writes an invitation to dinner at Trattoria MCP.',
      argsSchema: { friend: z.string(), time: z.string().optional() },
    },
    ({ friend, time }) => ({
      messages: [
        {
          role: 'user',
          content: { type: 'text', text: `Write a short, warm message inviting ${friend} to dinner at Trattoria MCP${time ? ` at ${time}` : ''}.` },
        },
      ],
    }),
  );

  mcp.registerResource(
    'menu',
    'demo://trattoria/menu',
    { title: "Tonight's menu", description: 'The menu of Trattoria MCP', mimeType: 'text/plain' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: MENU }] }),
  );

  return mcp;
}

async function main(): Promise<void> {
  const mcp = createDemoServer();
  await mcp.connect(new StdioServerTransport());
  // The proxy closes our stdin when it shuts down or drops the session: leave quietly.
  process.stdin.once('end', () => process.exit(0));
  log('ready on stdio');
}

main().catch((err) => {
  log(`failed: ${String(err)}`);
  process.exit(1);
});
