// RFC 6570 URI templates as the report needs them: the variables a migrated handler's read
// callback receives, and which declared template an audited URI was read through (the audit
// records the URI a client read, never the template). Pure; never expands or decodes values.

export interface TemplateVariable {
  name: string;
  /** A `{?...}` or `{&...}` variable: a client may leave it out of the URI. */
  query: boolean;
  /** `{name*}`: its value is a list. */
  explode: boolean;
}

const EXPRESSION = /\{([+#./;?&]?)([^}]*)\}/g;

/** Whether a resource name is a template rather than one URI. */
export const isTemplate = (uri: string): boolean => /\{[^}]+\}/.test(uri);

/** The variables of a template, each once, in order. */
export function templateVariables(template: string): TemplateVariable[] {
  const out: TemplateVariable[] = [];
  for (const [, op, list] of template.matchAll(EXPRESSION))
    for (const spec of (list ?? '').split(',')) {
      const name = spec.replace(/(\*|:\d+)$/, '').trim();
      if (name && !out.some((v) => v.name === name)) out.push({ name, query: op === '?' || op === '&', explode: spec.trim().endsWith('*') });
    }
  return out;
}

// What each operator's expansion may contain, loosely: enough to tell which template a URI came
// from, not to extract its values (the SDK the migrated server runs on does that).
const VALUE: Record<string, string> = {
  '': '[^/?#]*',
  '+': '[^#]*',
  '#': '(?:#.*)?',
  '.': '(?:\\.[^/?#]*)*',
  '/': '(?:/[^/?#]*)*',
  ';': '(?:;[^/?#]*)*',
  '?': '(?:\\?[^#]*)?',
  '&': '(?:&[^#]*)*',
};

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function matchesTemplate(uri: string, template: string): boolean {
  let source = '';
  let at = 0;
  for (const m of template.matchAll(EXPRESSION)) {
    source += literal(template.slice(at, m.index)) + VALUE[m[1] ?? '']!;
    at = m.index + m[0].length;
  }
  return new RegExp(`^${source}${literal(template.slice(at))}$`).test(uri);
}

/**
 * The name a read of `uri` is migrated under: the URI itself when it is a declared static
 * resource (or matches no template), else the first declared template it matches.
 */
export function resourceOf(uri: string, statics: readonly string[], templates: readonly string[]): string {
  if (statics.includes(uri)) return uri;
  return templates.find((t) => matchesTemplate(uri, t)) ?? uri;
}
