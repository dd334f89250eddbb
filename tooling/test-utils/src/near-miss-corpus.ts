// The near-miss edit corpus: shared by the editor's tests and the edits bench suite (which loads this file as is,
// so it must stay free of imports).

/**
 * One near miss of the kinds models make. Each case is a true edit (`old` → `new` as the file has them) plus the slip
 * the model made, applied to both strings. A recovered case must give exactly the true result; refused cases must
 * leave the file untouched. "Applied wrongly" must stay 0.
 */
export interface NearMissCase {
  kind: string;
  file: string;
  old: string;
  new: string;
  slip: (s: string) => string;
  expect: 'recover' | 'refuse';
}

const PY =
  'class Cart:\n    def total(self, items):\n        s = 0\n        for it in items:\n            s += it.price\n        return s\n\n    def count(self):\n        return len(self.items)\n';
const PY_OLD = '        for it in items:\n            s += it.price\n        return s';
const PY_NEW = '        for it in items:\n            s += it.price * it.qty\n        return s';
const JS = "function greet(name) {\n\tconst msg = 'Hello, ' + name;\n\tconsole.log(msg);\n\treturn msg;\n}\n";
const JS_OLD = "\tconst msg = 'Hello, ' + name;\n\tconsole.log(msg);";
const JS_NEW = "\tconst msg = 'Hi, ' + name;\n\tconsole.log(msg);";
const MD = 'Intro -- the "fast" path.\nSecond line it\'s here.\nThird.\n';
const id = (s: string) => s;
const dedent = (n: number) => (s: string) => s.replace(new RegExp(`^ {${n}}`, 'gm'), '');
const indent = (p: string) => (s: string) => s.replace(/^(?=.)/gm, p);
const tabsToSpaces = (s: string) => s.replace(/^\t+/gm, (t) => '    '.repeat(t.length));
const spacesToTabs = (s: string) => s.replace(/^( {4})+/gm, (t) => '\t'.repeat(t.length / 4));
const curly = (s: string) =>
  s
    .replace(/"([^"]*)"/g, '\u201C$1\u201D')
    .replace(/'/g, '\u2019')
    .replace(/--/g, '\u2014');
const escapeLiterally = (s: string) => s.replace(/\n/g, '\\n').replace(/\t/g, '\\t');
const trailing = (s: string) => s.replace(/\n/g, '  \n');
const prefixes = (start: number) => (s: string) =>
  s
    .split('\n')
    .map((l, i) => `${String(start + i).padStart(6)}\t${l}`)
    .join('\n');

export const NEAR_MISS_CASES: readonly NearMissCase[] = [
  { kind: 'wrong indentation (less)', file: PY, old: PY_OLD, new: PY_NEW, slip: dedent(4), expect: 'recover' },
  { kind: 'wrong indentation (more)', file: PY, old: PY_OLD, new: PY_NEW, slip: indent('  '), expect: 'recover' },
  { kind: 'spaces for tabs', file: JS, old: JS_OLD, new: JS_NEW, slip: tabsToSpaces, expect: 'recover' },
  { kind: 'tabs for spaces', file: PY, old: PY_OLD, new: PY_NEW, slip: spacesToTabs, expect: 'recover' },
  {
    kind: 'CRLF file edited with LF',
    file: PY.replace(/\n/g, '\r\n'),
    old: PY_OLD.replace(/\n/g, '\r\n'),
    new: PY_NEW.replace(/\n/g, '\r\n'),
    slip: (s) => s.replace(/\r\n/g, '\n'),
    expect: 'recover',
  },
  {
    kind: 'LF file edited with CRLF',
    file: PY,
    old: PY_OLD,
    new: PY_NEW,
    slip: (s) => s.replace(/\n/g, '\r\n'),
    expect: 'recover',
  },
  { kind: 'trailing spaces in old_string', file: PY, old: PY_OLD, new: PY_NEW, slip: trailing, expect: 'recover' },
  {
    kind: 'trailing spaces in the file',
    file: PY.replace('        s = 0\n', '        s = 0   \n'),
    old: '        s = 0   \n        for it in items:',
    new: '        s = 0   \n        for it in list(items):',
    slip: (s) => s.replace(/ +\n/g, '\n'),
    expect: 'recover',
  },
  {
    kind: 'curly quotes and em dash',
    file: MD,
    old: 'Intro -- the "fast" path.\nSecond line it\'s here.',
    new: 'Intro -- the "quick" path.\nSecond line it\'s here.',
    slip: curly,
    expect: 'recover',
  },
  {
    kind: 'non-breaking spaces',
    file: PY,
    old: PY_OLD,
    new: PY_NEW,
    slip: (s) => s.replace(/s \+= /g, 's\u00A0+=\u00A0'),
    expect: 'recover',
  },
  { kind: 'escaped \\n and \\t', file: JS, old: JS_OLD, new: JS_NEW, slip: escapeLiterally, expect: 'recover' },
  { kind: 'reader line-number prefixes', file: PY, old: PY_OLD, new: PY_NEW, slip: prefixes(4), expect: 'recover' },
  {
    kind: 'indentation and trailing spaces together',
    file: PY,
    old: PY_OLD,
    new: PY_NEW,
    slip: (s) => trailing(dedent(4)(s)),
    expect: 'recover',
  },
  {
    kind: 'a line missing from the middle',
    file: PY,
    old: PY_OLD,
    new: PY_NEW,
    slip: (s) => s.replace('            s += it.price\n', '').replace('            s += it.price * it.qty\n', ''),
    expect: 'refuse',
  },
  {
    kind: 'an extra line that is not in the file',
    file: PY,
    old: PY_OLD,
    new: PY_NEW,
    slip: (s) => s.replace('        return s', '        log(s)\n        return s'),
    expect: 'refuse',
  },
  {
    kind: 'stale content',
    file: PY,
    old: PY_OLD,
    new: PY_NEW,
    slip: (s) => s.replace('it.price', 'it.cost'),
    expect: 'refuse',
  },
  {
    kind: 'two similar blocks, loose match fits both',
    file: 'if a:\n    go()\n    stop()\nif b:\n        go()\n        stop()\n',
    old: '    go()\n    stop()',
    new: '    go()\n    halt()',
    slip: dedent(4),
    expect: 'refuse',
  },
  {
    kind: 'two similar blocks, exact match picks one',
    file: 'if a:\n    go()\n    stop()\nif b:\n        go()\n        stop()\n',
    old: '        go()\n        stop()',
    new: '        go()\n        halt()',
    slip: id,
    expect: 'recover',
  },
];
