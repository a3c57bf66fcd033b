// The migrated TypeScript server around the handlers: the helpers they share (the answers carried
// in a requestState sealed by the SDK's createRequestStateCodec), the entry point serving them over
// Streamable HTTP, the legacy server's other items listed as not migrated, package.json and a
// strict tsconfig.json. Pure: returns the files.
import type { HandlerFlow } from './handler-flow.js';
import { FOLDER, finishFile, type GeneratedFile, handlerFile } from './handlers-ts.js';
import type { ItemKind } from './migration.js';
import type { Declared } from './model.js';
import { tsComment, tsLiteral, tsStem, uniqueStems } from './quote.js';

export const SDK_VERSION = '2.4.0';
export const NODE_ADAPTER_VERSION = '2.1.2';

const MRTR_HELPERS = `// What every migrated handler shares: the answers so far, carried from round to round in a
// requestState sealed with the SDK's HMAC codec (the client holds it, so it must not be trusted
// unsealed), and the small predicates the generated flows branch on.
import { randomBytes } from 'node:crypto';
import { createRequestStateCodec, type ElicitRequestFormParams, inputRequired, type InputRequest, type InputRequiredResult, type ServerContext } from '@modelcontextprotocol/server';

/** The client's bare responses by input key, from every round so far. */
export type Answers = Record<string, unknown>;

interface State {
  /** Which handler minted it: a state is never carried over to another tool. */
  for: string;
  answers: Answers;
  /** The keys of the round it asked: a retry's responses to anything else are not taken. */
  asked: string[];
}

function stateKey(): string {
  const key = process.env['MRTR_STATE_KEY'];
  if (key && key.length >= 32) return key;
  // One process then serves every round of a call: fine for one instance, not for several.
  process.stderr.write('MRTR_STATE_KEY unset or shorter than 32 characters: using a random per-process key\\n');
  return randomBytes(32).toString('base64url');
}

export const stateCodec = createRequestStateCodec<State>({
  key: stateKey(),
  ttlSeconds: 3600,
  // A state minted for one method is refused on another.
  bind: (ctx) => ctx.mcpReq.method,
});

/** The answers so far: the sealed state's, plus this retry's responses to the round it asked. */
export async function resume(ctx: ServerContext, id: string): Promise<Answers> {
  const state = ctx.mcpReq.requestState<State>();
  if (!state || state.for !== id) return {};
  const answers: Answers = { ...state.answers };
  const responses = ctx.mcpReq.inputResponses ?? {};
  for (const key of state.asked) if (key in responses) answers[key] = responses[key];
  return answers;
}

/** Asks the next round, sealing the answers so far into the state the client sends back. */
export async function ask(ctx: ServerContext, id: string, answers: Answers, inputRequests: Record<string, InputRequest>): Promise<InputRequiredResult> {
  return inputRequired({ inputRequests, requestState: await stateCodec.mint({ for: id, answers, asked: Object.keys(inputRequests) }, ctx) });
}

/** Whether every key (or, with 'any', one of them) has an answer. */
export function answered(answers: Answers, keys: readonly string[], how: 'all' | 'any' = 'all'): boolean {
  return how === 'all' ? keys.every((k) => k in answers) : keys.some((k) => k in answers);
}

/** The branch already taken: the first whose questions have an answer, so that a retry goes the same way. */
export function taken(answers: Answers, branches: readonly (readonly string[])[]): number | undefined {
  const i = branches.findIndex((keys) => keys.some((k) => k in answers));
  return i < 0 ? undefined : i;
}

/** The client's action on one answer: an elicitation's action; sampling and roots answers accept. */
export function actionOf(answer: unknown): string {
  const a = answer as { action?: unknown } | undefined;
  return typeof a?.action === 'string' ? a.action : answer === undefined ? 'unanswered' : 'accept';
}

/** A question the legacy server asked that 2026-07-28 cannot ask: fails loudly where it is reached. */
export function unsupported(method: string): never {
  throw new Error(\`\${method} has no 2026-07-28 input request\`);
}

/** An audited JSON schema as the SDK's elicitation schema type. */
export function formSchema(schema: object): ElicitRequestFormParams['requestedSchema'] {
  return schema as ElicitRequestFormParams['requestedSchema'];
}
`;

function notMigratedFile(d: Declared | undefined, flows: readonly HandlerFlow[]): string {
  const migrated = (kind: ItemKind, name: string) => flows.some((f) => f.kind === kind && f.name === name);
  const tools = (d?.tools ?? []).filter((t) => !migrated('tool', t.name));
  const prompts = (d?.prompts ?? []).filter((p) => !migrated('prompt', p.name));
  const resources = (d?.resources ?? []).filter((r) => !migrated('resource', r.uri));
  const lines = [
    tsComment([
      'What the legacy server declared and the audit never saw ask: listed as it was, answered with',
      '"not migrated" until each is written (it never asked mid-call, so it moves over as it is).',
    ]),
    `import { ${tools.length + prompts.length ? 'fromJsonSchema, ' : ''}type McpServer } from '@modelcontextprotocol/server';`,
    '',
    `export const NOT_MIGRATED = ${tsLiteral({ tools: tools.map((t) => t.name), prompts: prompts.map((p) => p.name), resources: resources.map((r) => r.uri) })};`,
    '',
    // Declared only where used: the generated tsconfig has noUnusedLocals.
    ...(tools.length + prompts.length + resources.length
      ? ["const notMigrated = (what: string) => what + ': not migrated yet (still served by the legacy server)';", '']
      : []),
    'export function registerNotMigrated(server: McpServer): void {',
  ];
  for (const t of tools) {
    const meta = [
      ...(t.title === undefined ? [] : [`title: ${tsLiteral(t.title)}`]),
      ...(t.description === undefined ? [] : [`description: ${tsLiteral(t.description)}`]),
      `inputSchema: fromJsonSchema<Record<string, unknown>>(${tsLiteral(t.inputSchema ?? { type: 'object' })} as never)`,
      ...(t.annotations ? [`annotations: ${tsLiteral(t.annotations)}`] : []),
    ];
    lines.push(
      `  server.registerTool(${tsLiteral(t.name)}, { ${meta.join(', ')} }, async () => ({ content: [{ type: 'text', text: notMigrated(${tsLiteral(t.name)}) }], isError: true }));`,
    );
  }
  for (const p of prompts) {
    const args = p.arguments ?? [];
    const schema = {
      type: 'object',
      properties: Object.fromEntries(args.map((a) => [a.name, { type: 'string' }])),
      required: args.filter((a) => a.required).map((a) => a.name),
    };
    lines.push(
      `  server.registerPrompt(${tsLiteral(p.name)}, { ${p.description === undefined ? '' : `description: ${tsLiteral(p.description)}, `}argsSchema: fromJsonSchema<Record<string, unknown>>(${tsLiteral(schema)} as never) }, async () => {`,
      `    throw new Error(notMigrated(${tsLiteral(p.name)}));`,
      '  });',
    );
  }
  for (const r of resources) {
    lines.push(
      `  server.registerResource(${tsLiteral(r.name ?? tsStem(r.uri))}, ${tsLiteral(r.uri)}, { ${r.mimeType ? `mimeType: ${tsLiteral(r.mimeType)}` : ''} }, async () => {`,
      `    throw new Error(notMigrated(${tsLiteral(r.uri)}));`,
      '  });',
    );
  }
  lines.push('  void server;', '}', '');
  return lines.join('\n');
}

function serverFile(d: Declared | undefined, flows: readonly HandlerFlow[], upstream: string, names: ReadonlyMap<HandlerFlow, string>): string {
  const name = `${d?.server?.name ?? upstream}-migrated`;
  const imports = flows.map((f, i) => `import { register as register${i} } from './${FOLDER[f.kind]}/${names.get(f)}.js';`);
  return `${tsComment([
    `The 2026-07-28 server that replaces the legacy upstream ${tsLiteral(upstream)}${d?.server ? ` (${d.server.name} ${d.server.version})` : ''}: the migrated`,
    'handlers and, listed as not migrated, what the audit never saw ask. Streamable HTTP on',
    'HOST:PORT/mcp (default 127.0.0.1 and 3000; PORT=0 takes a free port); MRTR_STATE_KEY (32+',
    'characters) seals requestState and must be the same on every instance.',
  ])}
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { stateCodec } from './mrtr.js';
import { registerNotMigrated } from './not-migrated.js';
${imports.join('\n')}

export function build(): McpServer {
  const server = new McpServer(${tsLiteral({ name, version: '0.1.0' })}, { requestState: { verify: stateCodec.verify } });
${flows.map((_, i) => `  register${i}(server);`).join('\n')}
  registerNotMigrated(server);
  return server;
}

const handler = createMcpHandler(() => build(), { legacy: 'reject' });
const serve = toNodeHandler(handler);
const http = createServer((req, res) => {
  if (req.url?.split('?')[0] !== '/mcp') {
    res.writeHead(404).end();
    return;
  }
  void serve(req, res);
});
const host = process.env['HOST'] ?? '127.0.0.1';
http.listen(Number(process.env['PORT'] ?? 3000), host, () => {
  const { port } = http.address() as AddressInfo;
  process.stderr.write(\`listening on http://\${host}:\${port}/mcp\\n\`);
});
process.on('SIGTERM', () => http.close(() => process.exit(0)));
`;
}

function packageJson(name: string): string {
  return `${JSON.stringify(
    {
      name: tsStem(name).toLowerCase(),
      version: '0.1.0',
      private: true,
      type: 'module',
      scripts: { build: 'tsc -p tsconfig.json', start: 'node dist/server.js' },
      dependencies: { '@modelcontextprotocol/server': SDK_VERSION, '@modelcontextprotocol/node': NODE_ADAPTER_VERSION },
      devDependencies: { typescript: '^5.6.0', '@types/node': '^20.0.0' },
    },
    null,
    2,
  )}\n`;
}

const TSCONFIG = `${JSON.stringify(
  {
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      noUncheckedIndexedAccess: true,
      noUnusedLocals: true,
      verbatimModuleSyntax: true,
      skipLibCheck: true,
      outDir: 'dist',
      rootDir: 'src',
      types: ['node'],
    },
    include: ['src'],
  },
  null,
  2,
)}\n`;

/** Every file of the migrated TypeScript server for one upstream. */
export function typescriptServer(upstream: string, declared: Declared | undefined, flows: readonly HandlerFlow[]): GeneratedFile[] {
  const names = uniqueStems(
    flows,
    (f) => f.name,
    (f) => f.kind,
    { stem: tsStem, finishSuffix: '.finish' },
  );
  const files: GeneratedFile[] = [
    { path: 'package.json', text: packageJson(`${declared?.server?.name ?? upstream}-migrated`) },
    { path: 'tsconfig.json', text: TSCONFIG },
    { path: 'src/mrtr.ts', text: MRTR_HELPERS },
    { path: 'src/server.ts', text: serverFile(declared, flows, upstream, names) },
    { path: 'src/not-migrated.ts', text: notMigratedFile(declared, flows) },
  ];
  for (const flow of flows) {
    const base = `src/${FOLDER[flow.kind]}/${names.get(flow)}`;
    const { text, c } = handlerFile(flow, declared, names.get(flow)!);
    files.push({ path: `${base}.ts`, text }, { path: `${base}.finish.ts`, text: finishFile(flow, c), author: true });
  }
  return files;
}
