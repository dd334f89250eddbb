/** The small built-in project the demo copies into a temporary workspace. */
export const DEMO_PROJECT: Readonly<Record<string, string>> = {
  'README.md': '# stats\n\nTiny statistics helpers used by the bough demo.\n',
  'stats/calc.py': [
    'import os',
    'import sys',
    '',
    '',
    'def add(a, b):',
    '    return a - b  # BUG: should add',
    '',
    '',
    'def mean(values):',
    '    total = 0',
    '    for value in values:',
    '        total = add(total, value)',
    '    return total / len(values)',
    '',
  ].join('\n'),
  'stats/report.py': [
    'from stats.calc import mean',
    '',
    '',
    'def describe(values):',
    '    return f"mean={mean(values)}"',
    '',
  ].join('\n'),
  'web/greet.ts': [
    'export function greet(name: string): string {',
    "  return 'hello ' + name;",
    '}',
    '',
    'export const shout = (name: string): string => greet(name).toUpperCase();',
    '',
  ].join('\n'),
  'web/main.ts': ["import { greet, shout } from './greet';", '', 'console.log(greet("ada"), shout("bob"));', ''].join(
    '\n',
  ),
  'tsconfig.json':
    '{ "compilerOptions": { "strict": true, "target": "ES2022", "module": "ESNext", "moduleResolution": "Bundler", "noEmit": true } }\n',
  '.env': 'API_TOKEN=demo-secret-never-shown\n',
};
