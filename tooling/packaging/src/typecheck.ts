import { dirname, join } from 'node:path';
import ts from 'typescript';

/** The two resolutions a user's project is likely to have. */
export type Resolution = 'node16' | 'bundler';

const RESOLUTIONS: Record<Resolution, ts.CompilerOptions> = {
  node16: { module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16 },
  bundler: { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, noEmit: true },
};

/** Parsed standard-library files, shared by every program (they are the same for every project). */
const libFiles = new Map<string, ts.SourceFile>();

function host(options: ts.CompilerOptions): ts.CompilerHost {
  const base = ts.createCompilerHost(options);
  const libDir = dirname(ts.getDefaultLibFilePath(options));
  return {
    ...base,
    getSourceFile(fileName, language, onError, fresh) {
      if (!fileName.startsWith(libDir)) return base.getSourceFile(fileName, language, onError, fresh);
      let file = libFiles.get(fileName);
      if (!file) {
        file = base.getSourceFile(fileName, language, onError, fresh);
        if (file) libFiles.set(fileName, file);
      }
      return file;
    },
  };
}

/**
 * Type-checks `files` (one program) in `project` as a strict user project with only `typescript` added (default libs, every
 * installed `@types/*`, no `skipLibCheck`), and with node16 resolution emits them to `out/`. Every file of the program
 * is checked, ours and third-party declarations alike, as the user's `tsc` does: a declaration that needs an
 * undeclared `@types/node`, or a dependency's import of an untyped module (TS7016), fails here. Returns the
 * diagnostics as tsc prints them; empty means it compiled.
 */
export function typecheck(project: string, files: string | readonly string[], resolution: Resolution): string[] {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: false,
    outDir: join(project, 'out'),
    ...RESOLUTIONS[resolution],
  };
  const rootNames = (typeof files === 'string' ? [files] : files).map((file) => join(project, file));
  const program = ts.createProgram({ rootNames, options, host: host(options) });
  const diagnostics: ts.Diagnostic[] = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()];
  for (const source of program.getSourceFiles()) {
    diagnostics.push(...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source));
  }
  if (diagnostics.length === 0 && !options.noEmit) diagnostics.push(...program.emit().diagnostics);
  return diagnostics.map((diagnostic) =>
    ts.formatDiagnostic(diagnostic, {
      getCanonicalFileName: (name) => name,
      getCurrentDirectory: () => project,
      getNewLine: () => '\n',
    }),
  );
}
