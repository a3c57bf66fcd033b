// The quoting rule of generated code: whatever a value holds, it lands inert. TypeScript output is
// checked with the TypeScript parser itself (one comment stays one comment, a literal reads back as
// the value); Python output against the grammar of its escapes, identifiers and file names.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import ts from 'typescript';
import {
  commentText,
  isPyIdentifier,
  MAX_STEM,
  pyComment,
  pyLiteral,
  pyStem,
  pyString,
  shortHash,
  tsComment,
  tsLiteral,
  tsStem,
  uniqueStems,
} from '../../src/report/quote.js';

const RUNS = { numRuns: 500 };
/** Strings of any UTF-16 units, lone surrogates and every line terminator included. */
const anyText = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.constantFrom('\n', '\r', '\u2028', '\u2029', '\u0085', '\u0000', '\u001b', '\ud800', '\udc00', '*/', '"', "'", '\\', '`', '${', 'a') }),
);

function parse(source: string): ts.SourceFile & { parseDiagnostics?: readonly ts.Diagnostic[] } {
  return ts.createSourceFile('x.ts', source, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
}

/** Units no escaped text may hold: every line terminator and control, bidi controls, the BOM. */
const UNSAFE_RANGES: Array<[number, number]> = [
  [0x00, 0x1f],
  [0x7f, 0x9f],
  [0x061c, 0x061c],
  [0x200e, 0x200f],
  [0x2028, 0x202e],
  [0x2066, 0x2069],
  [0xfeff, 0xfeff],
];
const unsafeIn = (text: string) =>
  [...text].filter((ch) => ch.length === 1 && UNSAFE_RANGES.some(([lo, hi]) => ch.charCodeAt(0) >= lo && ch.charCodeAt(0) <= hi));
const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe('comments', () => {
  it('keep a TypeScript comment one comment, whatever the value (the statement after it is the only one)', () => {
    fc.assert(
      fc.property(anyText, fc.constantFrom('', '  '), (value, indent) => {
        const source = `${tsComment([`The tool ${value} asks`, value], indent)}\nexport const ok = 1;\n`;
        const file = parse(source);
        assert.deepEqual(file.parseDiagnostics ?? [], []);
        assert.equal(file.statements.length, 1);
        assert.equal(file.statements[0]!.getText(file), 'export const ok = 1;');
      }),
      RUNS,
    );
  });

  it('leave no line terminator, control, bidi control or lone surrogate in the text', () => {
    fc.assert(
      fc.property(anyText, (value) => {
        const text = commentText(value);
        assert.deepEqual(unsafeIn(text), []);
        assert.doesNotMatch(text, LONE);
        const py = pyComment([value], '    ');
        assert.equal(py.split(/\r\n|\r|\n/).length, 1);
        assert.doesNotMatch(py, /coding[:=]/i);
      }),
      RUNS,
    );
  });

  it('show what they escaped', () => {
    assert.equal(commentText('a\nb\rc\u2028d\u0085e\u0000'), 'a\\nb\\rc\\u2028d\\u0085e\\u0000');
    assert.equal(commentText('caf\u00e9 \ud83d\ude00'), 'caf\u00e9 \ud83d\ude00', 'letters and paired surrogates stay');
    assert.equal(pyComment(['-*- coding: utf-7 -*-']), '# -*- coding\\: utf-7 -*-');
  });
});

describe('string literals', () => {
  it('read back in TypeScript as the value they quote', () => {
    fc.assert(
      fc.property(anyText, (value) => {
        const file = parse(`export const v = ${tsLiteral(value)};\n`);
        assert.deepEqual(file.parseDiagnostics ?? [], []);
        const init = ((file.statements[0] as ts.VariableStatement).declarationList.declarations[0]!.initializer as ts.StringLiteral) ?? assert.fail();
        assert.equal(init.kind, ts.SyntaxKind.StringLiteral);
        // The parser reads a lone surrogate escape back as that unit.
        assert.equal(init.text, value);
      }),
      RUNS,
    );
  });

  it('hold in Python only escapes Python reads as JSON does', () => {
    fc.assert(
      fc.property(anyText, (value) => {
        const literal = pyString(value);
        assert.match(literal, /^"(?:[^"\\]|\\["\\bfnrt]|\\u[0-9a-f]{4})*"$/s);
        assert.deepEqual(unsafeIn(literal), []);
        assert.equal(JSON.parse(literal), value);
      }),
      RUNS,
    );
  });

  it('write JSON as Python literals, a key as a string', () => {
    assert.equal(pyLiteral({ a: [true, false, null, 1, 'x'] }), '{"a": [True, False, None, 1, "x"]}');
    assert.equal(pyLiteral({ 'k"\n': 'v\u2028' }), '{"k\\"\\n": "v\\u2028"}');
    assert.equal(tsLiteral({ 'k\u2029': 1 }), '{"k\\u2029":1}');
  });
});

const PY_KEYWORDS = ['class', 'def', 'import', 'None', 'match', 'case', 'type', '_', 'lambda', 'await'];

describe('Python module names', () => {
  it('are always Python identifiers that are no keyword, short, the same for the same name', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, fc.constantFrom(...PY_KEYWORDS)), (name) => {
        const id = pyStem(name);
        assert.match(id, /^[a-z][a-z0-9_]*$/);
        assert.ok(isPyIdentifier(id), id);
        assert.ok(id.length <= MAX_STEM);
        assert.equal(pyStem(name), id);
      }),
      RUNS,
    );
  });

  it('keep a name that is one, rename keywords and soft keywords with the name’s hash', () => {
    assert.equal(pyStem('book_table'), 'book_table');
    assert.equal(pyStem('class'), `class_${shortHash('class')}`);
    assert.equal(pyStem('match'), `match_${shortHash('match')}`);
    assert.equal(pyStem('None'), `none`, 'lowercased: no longer a keyword');
    assert.equal(pyStem('a\nimport os'), 'a_import_os');
  });
});

describe('file stems', () => {
  const PY = { stem: pyStem, finishSuffix: '_finish' };
  const TS = { stem: tsStem, finishSuffix: '.finish' };

  it('make file names of tool names and URIs', () => {
    assert.equal(tsStem('fixture://secret'), 'secret');
    assert.equal(tsStem('a b/c'), 'a-b-c');
    assert.equal(tsStem('///'), 'item');
    assert.equal(pyStem('book-table'), 'book_table');
    assert.equal(pyStem('fixture://1st'), 'item_1st');
    assert.equal(pyStem('class'), `class_${shortHash('class')}`);
    assert.equal(tsStem('x'.repeat(300)).length, MAX_STEM);
    assert.equal(pyStem('x'.repeat(300)).length, MAX_STEM);
  });

  it('never let an item take another item’s file or finish file (a and a_finish)', () => {
    const stems = uniqueStems(
      ['a', 'a_finish'],
      (n) => n,
      () => 'tools',
      PY,
    );
    assert.deepEqual([...stems.values()], ['a', `a_finish_${shortHash('a_finish')}`]);
  });

  for (const [lang, rules, ext] of [
    ['Python', PY, '.py'],
    ['TypeScript', TS, '.ts'],
  ] as const)
    it(`give every item of a folder its own ${lang} files, whatever the names, each name short`, () => {
      fc.assert(
        fc.property(fc.array(fc.oneof(anyText, fc.constantFrom('a', 'A', 'a_finish', 'a.finish', 'class', 'x'.repeat(300))), { maxLength: 12 }), (raw) => {
          const names = [...new Set(raw)];
          const stems = uniqueStems(
            names,
            (n) => n,
            () => 'tools',
            rules,
          );
          const files = [...stems.values()].flatMap((s) => [`${s}${ext}`, `${s}${rules.finishSuffix}${ext}`].map((f) => f.toLowerCase()));
          assert.equal(new Set(files).size, files.length, JSON.stringify(files));
          for (const s of stems.values()) {
            assert.match(s, lang === 'Python' ? /^[a-z][a-z0-9_]*$/ : /^[A-Za-z0-9_-]+$/);
            if (lang === 'Python') assert.ok(isPyIdentifier(s), s);
            assert.ok(Buffer.byteLength(`${s}${rules.finishSuffix}${ext}`) < 255);
          }
        }),
        RUNS,
      );
    });
});
