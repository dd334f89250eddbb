// Tiny projects the tests start real language servers on, and how to find the servers installed for tests.
import { accessSync, constants, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';

/** The PATH the tests give servers: this package's node_modules/.bin (typescript-language-server, pyright) first. */
export const TEST_PATH = [join(import.meta.dirname, '..', 'node_modules', '.bin'), process.env.PATH ?? ''].join(
  delimiter,
);

/** Environment the test servers inherit: PATH with the npm servers, HOME for caches, Go kept off the network. */
export const TEST_ENV = {
  baseEnv: { PATH: TEST_PATH, HOME: process.env.HOME ?? '/tmp' },
  env: { GOPROXY: 'off', GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local' },
};

/** The files of each fixture project. */
export const PROJECTS = {
  go: {
    'go.mod': 'module example.com/demo\n\ngo 1.19\n',
    'calc.go':
      'package main\n\n// Add returns the sum.\nfunc Add(a int, b int) int {\n\treturn a + b\n}\n\ntype Box struct {\n\tSize int\n}\n\nfunc (b Box) Area() int {\n\treturn b.Size * b.Size\n}\n',
    'main.go':
      'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println(Add(1, 2))\n\tfmt.Println(Box{Size: 3}.Area())\n}\n',
  },
  c: {
    'compile_flags.txt': '-std=c11\n',
    'util.h': '#ifndef UTIL_H\n#define UTIL_H\nint add(int a, int b);\n#endif\n',
    'util.c': '#include "util.h"\n\nint add(int a, int b) {\n  return a + b;\n}\n',
    'main.c':
      '#include "util.h"\n\nstruct point {\n  int x;\n  int y;\n};\n\nint main(void) {\n  struct point p = {1, 2};\n  return add(p.x, p.y);\n}\n',
  },
  ts: {
    'tsconfig.json': '{ "compilerOptions": { "strict": true, "target": "es2022", "module": "nodenext" } }\n',
    'package.json': '{ "name": "demo", "type": "module" }\n',
    'math.ts': 'export function double(n: number): number {\n  return n * 2;\n}\n',
    'main.ts': "import { double } from './math.js';\n\nexport const four: number = double(2);\n",
  },
  python: {
    'pyrightconfig.json': '{ "typeCheckingMode": "standard" }\n',
    'shapes.py': 'def area(width: int, height: int) -> int:\n    return width * height\n',
    'main.py': 'from shapes import area\n\nprint(area(2, 3))\n',
  },
} as const;

/** Writes one fixture project into a fresh temporary directory (real path) and returns it with a remover. */
export function makeProject(name: keyof typeof PROJECTS): { root: string; remove: () => void } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), `bough-lsp-${name}-`)));
  for (const [file, text] of Object.entries(PROJECTS[name])) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** True when `program` is an executable on {@link TEST_PATH}; tests of a server that is absent skip and say why. */
export function installed(program: string): boolean {
  return TEST_PATH.split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, program), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** Prints why a server's tests are skipped (vitest shows the skip; this says the reason). */
export function skipReason(program: string): string | undefined {
  if (installed(program)) return undefined;
  const reason = `${program} is not installed; its tests are skipped (see the README for the install command).`;
  console.warn(reason);
  return reason;
}
