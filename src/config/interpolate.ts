// `${VAR}` environment interpolation in every string value of a configuration file. Pure: the
// environment is passed in. `$${` stands for a literal `${`. An unset variable, or a `${` that does
// not name one, is a problem naming the field; problems are collected, never thrown one at a time.

const REFERENCE = /\$\$\{|\$\{([^}]*)\}?/g;
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface Interpolated {
  value: unknown;
  /** `field.path: what is wrong`, one per problem, in document order. */
  problems: string[];
}

/** `refused`: variables never written into the configuration (the state key's), so never into a child's env. */
export function interpolateEnv(value: unknown, env: Record<string, string | undefined>, refused: ReadonlySet<string> = new Set()): Interpolated {
  const problems: string[] = [];
  const walk = (v: unknown, path: readonly (string | number)[]): unknown => {
    if (typeof v === 'string') return interpolateString(v, env, refused, fieldName(path), problems);
    if (Array.isArray(v)) return v.map((item, i) => walk(item, [...path, i]));
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, walk(item, [...path, k])]));
    return v;
  };
  return { value: walk(value, []), problems };
}

function interpolateString(s: string, env: Record<string, string | undefined>, refused: ReadonlySet<string>, field: string, problems: string[]): string {
  return s.replace(REFERENCE, (match, name: string | undefined) => {
    if (match === '$${') return '${';
    if (!match.endsWith('}') || name === undefined || !VARIABLE_NAME.test(name)) {
      problems.push(`${field}: '${match}' is not a \${VARIABLE} reference (write $\${ for a literal \${)`);
      return match;
    }
    if (refused.has(name)) {
      problems.push(`${field}: \${${name}} is the proxy's state key, which is never written into the configuration`);
      return match;
    }
    const found = env[name];
    if (found === undefined) {
      problems.push(`${field}: environment variable ${name} is not set`);
      return match;
    }
    return found;
  });
}

function fieldName(path: readonly (string | number)[]): string {
  return path.length === 0 ? '(top level)' : path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}
