// RFC 6570 URI templates as the report needs them: the variables a migrated handler's read
// callback receives, and which declared template an audited read belongs to (the audit records the
// template; audit files from before it did hold the URI read). Pure; never expands or decodes values.
import { matchesTemplate, resourceNameOf, type ResourceName } from '../protocol/resource-names.js';

export { matchesTemplate };

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

/**
 * What an audited read is reported under: the record's declared resource or template; in an audit
 * file from before reads were named, the template its URI matches; never a URI matching nothing
 * declared (that may hold what the user typed): its scheme, `undeclared`.
 */
export function auditedReadName(r: { target: string; undeclared?: true }, statics: readonly string[], templates: readonly string[]): ResourceName {
  if (r.undeclared) return { name: r.target, undeclared: true };
  // A template (declared, or declared when it was audited) names itself.
  if (isTemplate(r.target)) return { name: r.target };
  return resourceNameOf(r.target, statics, templates);
}

/**
 * The name a read of `uri` is migrated under: the URI itself when it is a declared static
 * resource or template (or matches no template), else the first declared template it matches.
 */
export function resourceOf(uri: string, statics: readonly string[], templates: readonly string[]): string {
  if (statics.includes(uri) || templates.includes(uri)) return uri;
  return templates.find((t) => matchesTemplate(uri, t)) ?? uri;
}
