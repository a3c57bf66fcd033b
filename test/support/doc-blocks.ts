// The runnable blocks of the docs: a fenced block right after a comment
//
//   <!-- runnable: SCENARIO[,SCENARIO...] ROLE [ARGUMENTS] -->
//
// belongs to each named scenario, in the order of the file. Roles:
//   start "READY" [N]  a shell block left running (a server); ready once its output matched READY N times (1)
//   file PATH          the block's text, written to PATH before the scenario's blocks run
//   prelude            shell definitions (variables, functions) every later expect block of the scenario starts with
//   expect "TEXT"      a shell block that must exit 0 with TEXT in its output
// A reader runs the blocks as they read them; test/e2e/doc-blocks.test.ts runs each scenario the same way.

export type Role = { kind: 'start'; ready: string; times: number } | { kind: 'file'; path: string } | { kind: 'prelude' } | { kind: 'expect'; text: string };

export interface DocBlock {
  /** Where it is, for messages: `docs/tasks.md:238`. */
  at: string;
  role: Role;
  text: string;
}

const MARK = /^<!--\s*runnable:\s*(\S+)\s+(start|file|prelude|expect)(?:\s+(.*?))?\s*-->\s*$/;

function role(kind: string, args: string, at: string): Role {
  const quoted = /^"([^"]*)"\s*(\d+)?$/.exec(args);
  switch (kind) {
    case 'start':
      if (!quoted) throw new Error(`${at}: start needs "READY" [N]`);
      return { kind, ready: quoted[1]!, times: Number(quoted[2] ?? 1) };
    case 'expect':
      if (!quoted || quoted[2] !== undefined) throw new Error(`${at}: expect needs "TEXT"`);
      return { kind, text: quoted[1]! };
    case 'file':
      if (!/^\S+$/.test(args)) throw new Error(`${at}: file needs a PATH`);
      return { kind, path: args };
    default:
      if (args !== '') throw new Error(`${at}: prelude takes no arguments`);
      return { kind: 'prelude' };
  }
}

/** The scenarios of one Markdown file, each with its blocks in order. */
export function runnableBlocks(file: string, markdown: string): Map<string, DocBlock[]> {
  const scenarios = new Map<string, DocBlock[]>();
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = MARK.exec(lines[i]!);
    if (!m) {
      if (/^\s*<!--\s*runnable/.test(lines[i]!)) throw new Error(`${file}:${i + 1}: not a runnable mark: ${lines[i]}`);
      continue;
    }
    const at = `${file}:${i + 1}`;
    const fence = /^(```+|~~~+)/.exec(lines[i + 1] ?? '');
    if (!fence) throw new Error(`${at}: a runnable mark must be followed at once by a fenced block`);
    const end = lines.findIndex((l, j) => j > i + 1 && l.startsWith(fence[1]!));
    if (end === -1) throw new Error(`${at}: the fenced block does not end`);
    const block: DocBlock = { at, role: role(m[2]!, m[3] ?? '', at), text: `${lines.slice(i + 2, end).join('\n')}\n` };
    for (const name of m[1]!.split(',')) scenarios.set(name, [...(scenarios.get(name) ?? []), block]);
    i = end;
  }
  return scenarios;
}
