// The one rule by which a value from a legacy server or an audit file reaches generated source:
// each helper makes it inert where it lands (a string literal, a comment, an identifier, a file
// name). A renderer never interpolates such a value any other way. Pure.
import { createHash } from 'node:crypto';

/**
 * Whether a UTF-16 unit is escaped wherever a value lands: C0 and C1 controls (line feed, carriage
 * return, NUL, U+0085 ...), the Unicode line and paragraph separators (which end a `//` comment),
 * the bidi controls that make source read otherwise than it compiles, and the BOM.
 */
function unsafeUnit(c: number): boolean {
  return (
    c <= 0x1f ||
    (c >= 0x7f && c <= 0x9f) ||
    c === 0x061c ||
    c === 0x200e ||
    c === 0x200f ||
    c === 0x2028 ||
    c === 0x2029 ||
    (c >= 0x202a && c <= 0x202e) ||
    (c >= 0x2066 && c <= 0x2069) ||
    c === 0xfeff
  );
}

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;
const hex4 = (c: number) => `\\u${c.toString(16).padStart(4, '0')}`;

/** `text` with every unsafe unit, and every surrogate not in a pair, replaced by `shown(unit)`. */
function escapeUnsafe(text: string, shown: (c: number) => string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isHigh(c) && i + 1 < text.length && isLow(text.charCodeAt(i + 1))) {
      out += text.slice(i, i + 2);
      i++;
    } else out += unsafeUnit(c) || isHigh(c) || isLow(c) ? shown(c) : text[i];
  }
  return out;
}

const NAMED: Record<number, string> = { 10: '\\n', 13: '\\r', 9: '\\t' };

/** A value as text on one line that nothing ends: every unsafe character shown as its escape. */
export function commentText(value: string): string {
  return escapeUnsafe(value, (c) => NAMED[c] ?? hex4(c));
}

/** A JSON value as a TypeScript expression. JSON.stringify leaves U+2028/U+2029 and the bidi controls raw: escaped here. */
export function tsLiteral(value: unknown): string {
  const s = JSON.stringify(value);
  if (s === undefined) throw new TypeError('tsLiteral: not a JSON value');
  // Outside strings JSON holds none of these, so escaping them everywhere is escaping them in strings.
  return escapeUnsafe(s, hex4);
}

/** A string as a Python string literal (JSON's escapes are Python's, for a string). */
export function pyString(value: string): string {
  return escapeUnsafe(JSON.stringify(value), hex4);
}

/** A JSON value as a Python expression: dicts, lists, strings, numbers, True/False/None. */
export function pyLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : 'None';
  if (typeof value === 'string') return pyString(value);
  if (Array.isArray(value)) return `[${value.map(pyLiteral).join(', ')}]`;
  if (typeof value === 'object')
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${pyString(k)}: ${pyLiteral(v)}`)
      .join(', ')}}`;
  throw new TypeError(`pyLiteral: not a JSON value (${typeof value})`);
}

/** `//` comment lines: each value escaped, so that a line ends only where the generator ends it. */
export function tsComment(lines: readonly string[], indent = ''): string {
  return lines.map((l) => `${indent}// ${commentText(l)}`.trimEnd()).join('\n');
}

/**
 * `#` comment lines. Python also reads a comment on a file's first two lines that names a
 * `coding` as the file's encoding (PEP 263): that spelling is broken up.
 */
export function pyComment(lines: readonly string[], indent = ''): string {
  return lines.map((l) => `${indent}# ${commentText(l).replace(/(coding)([:=])/gi, '$1\\$2')}`.trimEnd()).join('\n');
}

/** A short stable hash of a name: what keeps two renamed names apart. */
export const shortHash = (value: string): string => createHash('sha256').update(value).digest('hex').slice(0, 8);

// Python's keyword.kwlist and keyword.softkwlist (3.12).
const PY_KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield _ case match type'.split(
    ' ',
  ),
);
const PY_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Whether a name may stand as a Python identifier as it is (ASCII, not a keyword or soft keyword). */
export const isPyIdentifier = (name: string): boolean => PY_NAME.test(name) && !PY_KEYWORDS.has(name);

/** Longest stem a generated file or identifier takes from a name; longer ones are cut and hashed. */
export const MAX_STEM = 64;

function capped(stem: string, name: string, sep: string): string {
  return stem.length <= MAX_STEM ? stem : `${stem.slice(0, MAX_STEM - 9).replace(/[-_]+$/, '')}${sep}${shortHash(name)}`;
}

/** A file stem for a TypeScript handler: letters, digits, `-` and `_`; a URI loses its scheme. */
export function tsStem(name: string): string {
  const s = name
    .replace(/^[a-z]+:\/\//i, '')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return capped(s === '' ? 'item' : s, name, '-');
}

/** A Python module name for a handler: lowercase identifier characters; never a keyword. */
export function pyStem(name: string): string {
  const s = name
    .replace(/^[a-z]+:\/\//i, '')
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
  const stem = s === '' || /^[0-9]/.test(s) ? `item_${s}` : s;
  return PY_KEYWORDS.has(stem) ? `${stem}_${shortHash(name)}` : capped(stem, name, '_');
}

export interface StemRules {
  /** A name's stem (tsStem, pyStem). */
  stem: (name: string) => string;
  /** What the author's file adds to a stem (`.finish`, `_finish`): no other item's stem may end so. */
  finishSuffix: string;
}

/**
 * A stem per item, unique within its group regardless of case (a case-insensitive file system
 * holds one of `A` and `a`); a stem that is taken or would read as another item's
 * finish file gets the name's short hash.
 */
export function uniqueStems<T>(items: readonly T[], nameOf: (item: T) => string, groupOf: (item: T) => string, rules: StemRules): Map<T, string> {
  const out = new Map<T, string>();
  const used = new Set<string>();
  const key = (group: string, stem: string) => `${group}/${stem.toLowerCase()}`;
  const sep = rules.finishSuffix.startsWith('_') ? '_' : '-';
  for (const item of items) {
    const name = nameOf(item);
    const group = groupOf(item);
    const base = rules.stem(name);
    const clash = (s: string) => used.has(key(group, s));
    let stem = base;
    if (base.toLowerCase().endsWith(rules.finishSuffix.toLowerCase()) || clash(stem))
      stem = `${base.slice(0, MAX_STEM - 9).replace(/[-_]+$/, '')}${sep}${shortHash(name)}`;
    const first = stem;
    for (let n = 2; clash(stem); n++) stem = `${first}${sep}${n}`;
    used.add(key(group, stem));
    out.set(item, stem);
  }
  return out;
}
