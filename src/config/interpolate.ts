// Environment interpolation in every string value of a configuration file. Pure: the environment is
// passed in. `${VAR}`, `$VAR` and `${env:VAR}` (the desktop clients' spelling) read a variable; `$$`
// is a literal `$` (so `$${` is a literal `${`). A `$` before anything else stays as written. An
// unset variable, a `${` that does not name one, or an editor's own variable (`${input:ID}`,
// `${workspaceFolder}`) is a problem naming the field; problems are collected, never thrown one at
// a time.

const REFERENCE = /\$\$|\$\{([^}]*)\}?|\$([A-Za-z_][A-Za-z0-9_]*)/g;
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Variables of VS Code and Cursor that only an editor can fill in, and what to write instead. */
const EDITOR_VARIABLES: Readonly<Record<string, string>> = {
  workspaceFolder: 'a path relative to the configuration file (a stdio cwd defaults to its directory)',
  workspaceFolderBasename: 'the folder name itself',
  userHome: '$HOME',
  pathSeparator: '/',
  '/': '/',
};

export interface Interpolated {
  value: unknown;
  /** `field.path: what is wrong`, one per problem, in document order. */
  problems: string[];
  /** Every variable read, with the path of the value it was read into. */
  variables: Array<{ name: string; path: readonly (string | number)[] }>;
}

/** `refused`: variables never written into the configuration (the state key's), so never into a child's env. */
export function interpolateEnv(value: unknown, env: Record<string, string | undefined>, refused: ReadonlySet<string> = new Set()): Interpolated {
  const problems: string[] = [];
  const variables: Interpolated['variables'] = [];
  const walk = (v: unknown, path: readonly (string | number)[]): unknown => {
    if (typeof v === 'string') return interpolateString(v, { env, refused, field: fieldName(path), problems, read: (name) => variables.push({ name, path }) });
    if (Array.isArray(v)) return v.map((item, i) => walk(item, [...path, i]));
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, walk(item, [...path, k])]));
    return v;
  };
  return { value: walk(value, []), problems, variables };
}

interface Context {
  env: Record<string, string | undefined>;
  refused: ReadonlySet<string>;
  field: string;
  problems: string[];
  read: (name: string) => void;
}

function interpolateString(s: string, c: Context): string {
  return s.replace(REFERENCE, (match, braced: string | undefined, bare: string | undefined) => {
    if (match === '$$') return '$';
    if (bare !== undefined) return lookup(bare, match, c);
    if (!match.endsWith('}') || braced === undefined) return problem(c, `'${match}' is not a \${VARIABLE} reference (write $\${ for a literal \${)`, match);
    if (braced.startsWith('input:')) {
      return problem(c, `${match} is an input VS Code prompts for; the proxy cannot prompt: set an environment variable and write \${NAME}`, match);
    }
    const name = braced.startsWith('env:') ? braced.slice(4) : braced;
    if (!VARIABLE_NAME.test(name)) {
      const instead = EDITOR_VARIABLES[name];
      if (instead !== undefined) return problem(c, `${match} is an editor's variable; write ${instead}`, match);
      return problem(c, `'${match}' is not a \${VARIABLE} reference (write $\${ for a literal \${)`, match);
    }
    return lookup(name, match, c);
  });
}

function lookup(name: string, match: string, c: Context): string {
  if (c.refused.has(name)) return problem(c, `\${${name}} is the proxy's state key, which is never written into the configuration`, match);
  const found = c.env[name];
  if (found !== undefined) {
    c.read(name);
    return found;
  }
  const instead = EDITOR_VARIABLES[name];
  if (instead !== undefined) return problem(c, `${match} is an editor's variable; write ${instead}`, match);
  return problem(c, `environment variable ${name} is not set${match.startsWith('${') ? '' : ` (write $$ for a literal $)`}`, match);
}

function problem(c: Context, message: string, match: string): string {
  c.problems.push(`${c.field}: ${message}`);
  return match;
}

function fieldName(path: readonly (string | number)[]): string {
  return path.length === 0 ? '(top level)' : path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}
