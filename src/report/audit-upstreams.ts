// Which inspected server an audited call belongs to. Audit lines carry the upstream's name as the
// proxy knew it (`default` for a command-line server, the configuration file's names otherwise),
// and the report may name the server differently from the proxy that wrote the audit: a file
// audited under `--config` and reported with `-- COMMAND`. One server named on the command line
// takes every audited call when the audit names one upstream; any other name that matches no
// inspected upstream is said aloud, never joined silently as a separate, undeclared row.

export interface UpstreamMatch {
  /** Audited name -> inspected name, for the calls the report attributes to another name. */
  rename: Map<string, string>;
  /** What the operator should know: a rename made, or names that match nothing. */
  notes: string[];
}

/**
 * `inspected`: the upstreams the report connected to; `audited`: the names in the audit;
 * `commandLine`: the one server was named by `-- COMMAND` or `--upstream` rather than a file.
 */
export function matchAuditUpstreams(inspected: readonly string[], audited: readonly string[], commandLine: boolean): UpstreamMatch {
  const known = new Set(inspected);
  const names = [...new Set(audited)];
  const strangers = names.filter((n) => !known.has(n));
  const rename = new Map<string, string>();
  if (strangers.length === 0) return { rename, notes: [] };
  const [only] = inspected;
  if (commandLine && only !== undefined && names.length === 1) {
    rename.set(strangers[0]!, only);
    return {
      rename,
      notes: [`the audit's calls are all of upstream '${strangers[0]}': reported as the server named on the command line`],
    };
  }
  return {
    rename,
    notes: [
      `audited upstream${strangers.length === 1 ? '' : 's'} ${strangers.map((n) => `'${n}'`).join(', ')} match${strangers.length === 1 ? 'es' : ''} none of the inspected ones (${inspected.map((n) => `'${n}'`).join(', ')}): ${strangers.length === 1 ? 'its' : 'their'} calls are listed apart, as not declared; name the servers as the proxy that wrote the audit did (--config FILE)`,
    ],
  };
}
