// `tsc --noEmit` in-process, for a caller that needs its program afterwards (scripts/typecheck-lint.ts).
//
// The same steps as tsc's command line (TypeScript's src/compiler/watch.ts, emitFilesAndReportErrors, and
// src/compiler/executeCommandLine.ts, performCompilation): read tsconfig.json with the command line's `--noEmit`,
// build the program, take the config file's diagnostics and the syntactic ones, and only when there are none the
// options', global and semantic ones; sort and deduplicate them, print each as tsc prints into a pipe (file(line,col):
// error TSnnnn: message), and exit as tsc does when there is any (2 with --noEmit). One
// difference, on purpose: tsc parses only the JSDoc that type errors need, this program all of it, as
// typescript-eslint needs (no-deprecated reads @deprecated tags); the diagnostics are the same (a test runs both on a
// project with errors and compares).
import { join } from 'node:path';
import ts from 'typescript';

export interface TscResult {
  readonly program: ts.Program;
  /** tsc's exit code: 0, or 1 or 2 when it reported a diagnostic (its ExitStatus). */
  readonly exitCode: 0 | 1 | 2;
}

export function tscNoEmit(projectDir: string, write: (text: string) => void): TscResult {
  const formatHost: ts.FormatDiagnosticsHost = {
    getCurrentDirectory: () => ts.sys.getCurrentDirectory(),
    getNewLine: () => ts.sys.newLine,
    getCanonicalFileName: (f) => (ts.sys.useCaseSensitiveFileNames ? f : f.toLowerCase()),
  };
  const report = (d: ts.Diagnostic): void => {
    write(ts.formatDiagnostic(d, formatHost));
  };
  const config = ts.getParsedCommandLineOfConfigFile(
    join(projectDir, 'tsconfig.json'),
    { noEmit: true },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        report(d);
        // As tsc: an unreadable config file ends the run at once, "diagnostics present, outputs skipped".
        process.exit(1);
      },
    },
  );
  if (config === undefined) throw new Error('unreachable: no tsconfig.json and no diagnostic');
  const program = ts.createProgram({
    rootNames: config.fileNames,
    options: config.options,
    ...(config.projectReferences !== undefined ? { projectReferences: config.projectReferences } : {}),
    host: ts.createCompilerHost(config.options),
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(config),
  });
  const all: ts.Diagnostic[] = [...program.getConfigFileParsingDiagnostics()];
  const fromConfig = all.length;
  all.push(...program.getSyntacticDiagnostics());
  if (all.length === fromConfig) {
    all.push(...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics());
    if (all.length === fromConfig) all.push(...program.getSemanticDiagnostics());
    const declarations = config.options.declaration === true || config.options.composite === true;
    if (declarations && all.length === fromConfig) all.push(...program.getDeclarationDiagnostics());
  }
  const emitted = program.emit();
  all.push(...emitted.diagnostics);
  const diagnostics = ts.sortAndDeduplicateDiagnostics(all);
  diagnostics.forEach(report);
  // tsc's ExitStatus: DiagnosticsPresent_OutputsSkipped (1) or DiagnosticsPresent_OutputsGenerated (2); with
  // --noEmit the emit is not "skipped" (nothing was to be written), so tsc --noEmit exits 2 on any error.
  const exitCode = diagnostics.length === 0 ? 0 : emitted.emitSkipped ? 1 : 2;
  return { program, exitCode };
}
