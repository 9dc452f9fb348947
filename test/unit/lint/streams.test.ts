// Only the CLI writes to a stream (ARCHITECTURE.md: app/ returns answers and reports warnings as data; the core is
// pure): outside src/cli/ and the two entry files that own the real streams (src/main.ts, src/composition-root.ts),
// no file of src/ may touch process.stdout, process.stderr or console, write to a stream, or hold one (a value,
// parameter or field whose type is a stream, or an object with a stream field, such as the CLI's Io). The check reads
// src/ with the TypeScript compiler's type checker, so a stream passed under another name is still a stream; each
// probe below shows it catches what it must.
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');
const src = join(root, 'src');

/** Where streams may be written and held: the CLI, and the entry files that own the real ones. */
function mayWrite(rel: string): boolean {
  return rel.startsWith('src/cli/') || rel === 'src/main.ts' || rel === 'src/composition-root.ts';
}

/**
 * The one exception, and why: an exec credential plugin's stderr is the user's terminal, as kubectl hands it over
 * (client-go's exec.go sets cmd.Stderr to os.Stderr); the adapter passes it to the child (its file descriptor, or
 * each chunk the child writes) and never writes words of its own there. composition-root.ts gives it the stream.
 */
const EXCEPTIONS: Record<string, string> = {
  'src/cluster/connection/exec-credential-types.ts': 'ExecIo.stderr: the stream an exec plugin inherits',
  'src/cluster/connection/exec-credential-run.ts': "the exec plugin's stderr, passed through",
  'src/cluster/connection/exec-credential.ts': 'hands ExecIo to the plugin run',
  'src/cluster/connection/transport.ts': 'TransportDeps.execIo, handed on to the exec credential provider',
  'src/cluster/connection/request-auth.ts':
    "the exec plugin's stderr, handed to the exec credential provider",
};

/** The names of the stream types: Node's writable streams, and the CLI's TextSink (io.ts). */
const STREAM_TYPES = new Set(['WritableStream', 'WriteStream', 'Writable', 'TextSink']);

function isStream(type: ts.Type): boolean {
  if (type.isUnionOrIntersection()) return type.types.some(isStream);
  const name = (type.aliasSymbol ?? type.getSymbol())?.getName();
  return name !== undefined && STREAM_TYPES.has(name);
}

const holding = new WeakMap<ts.Type, boolean>();

/** A stream, or an object that holds one in a field (the CLI's Io: stdout, stderr). */
function holdsStream(checker: ts.TypeChecker, type: ts.Type, at: ts.Node): boolean {
  const known = holding.get(type);
  if (known !== undefined) return known;
  let holds = isStream(type);
  if (!holds && type.isUnionOrIntersection()) holds = type.types.some((t) => holdsStream(checker, t, at));
  else if (!holds && type.flags & ts.TypeFlags.Object) {
    holds = checker.getPropertiesOfType(type).some((p) => isStream(checker.getTypeOfSymbolAtLocation(p, at)));
  }
  holding.set(type, holds);
  return holds;
}

/** What FILE does with streams, one line each: `line: what`. */
function findings(checker: ts.TypeChecker, file: ts.SourceFile): string[] {
  const out = new Set<string>();
  const report = (node: ts.Node, what: string): void => {
    const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
    out.add(`${String(line + 1)}: ${what}`);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression)) {
      const owner = node.expression.text;
      const name = node.name.text;
      if (owner === 'process' && (name === 'stdout' || name === 'stderr')) report(node, `process.${name}`);
      if (owner === 'console') report(node, `console.${name}`);
    }
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const receiver = node.expression.expression;
      if (node.expression.name.text === 'write' && isStream(checker.getTypeAtLocation(receiver)))
        report(node, `writes to ${receiver.getText(file)}`);
    }
    const declared =
      ts.isParameter(node) ||
      ts.isPropertySignature(node) ||
      ts.isPropertyDeclaration(node) ||
      ts.isVariableDeclaration(node) ||
      ts.isPropertyAssignment(node) ||
      ts.isShorthandPropertyAssignment(node);
    if (declared && node.name !== undefined) {
      if (holdsStream(checker, checker.getTypeAtLocation(node.name), node.name))
        report(node, `holds a stream: ${node.name.getText(file)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return [...out];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

const options: ts.CompilerOptions = {
  ...ts.convertCompilerOptionsFromJson(
    {
      target: 'ES2023',
      lib: ['ES2023'],
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      exactOptionalPropertyTypes: true,
      skipLibCheck: true,
      types: ['node'],
    },
    root,
  ).options,
  noEmit: true,
};

/**
 * Every finding in src/ outside the CLI and the entry files, by file, with PROBES (text by path under src/) read as
 * if they were files of src/: one program, one type checker for all.
 */
function scan(probes: Record<string, string>): Record<string, string[]> {
  const overlay = Object.fromEntries(Object.entries(probes).map(([rel, text]) => [join(root, rel), text]));
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (name) => overlay[name] ?? readFile(name);
  host.fileExists = (name) => name in overlay || ts.sys.fileExists(name);
  host.getSourceFile = (name, language) => {
    const text = overlay[name];
    return text !== undefined ? ts.createSourceFile(name, text, language) : getSourceFile(name, language);
  };
  const program = ts.createProgram([...sourceFiles(src), ...Object.keys(overlay)], options, host);
  const checker = program.getTypeChecker();
  const found: Record<string, string[]> = {};
  for (const file of program.getSourceFiles()) {
    const rel = relative(root, file.fileName).split('\\').join('/');
    if (!rel.startsWith('src/') || mayWrite(rel)) continue;
    const lines = findings(checker, file);
    if (lines.length > 0) found[rel] = lines;
  }
  return found;
}

const PROBES: Record<string, { file: string; text: string; want: RegExp | undefined; reason: string }> = {
  ProcessStderrInApp: {
    file: 'src/app/probe.ts',
    text: "export function f(): void {\n  process.stderr.write('warning: x\\n');\n}\n",
    want: /process\.stderr/,
    reason: 'the real stream, reached directly',
  },
  ConsoleInTheCore: {
    file: 'src/sync/probe.ts',
    text: "export function f(): void {\n  console.warn('x');\n}\n",
    want: /console\.warn/,
    reason: 'console writes to the process streams',
  },
  SinkParameterWrittenTo: {
    file: 'src/app/probe.ts',
    text: "import type { TextSink } from '../cli/io.js';\nexport function f(out: TextSink): void {\n  out.write('x');\n}\n",
    want: /writes to out/,
    reason: 'a stream handed in under another name is still written to',
  },
  AppDepsWithAStream: {
    file: 'src/app/probe.ts',
    text: 'export interface Deps {\n  readonly log: NodeJS.WritableStream;\n}\n',
    want: /holds a stream: log/,
    reason: 'a field of a stream type: the stream AppDeps must not carry',
  },
  ObjectHoldingStreams: {
    file: 'src/app/probe.ts',
    text: "import type { Io } from '../cli/io.js';\nexport interface Deps {\n  readonly io: Io;\n}\n",
    want: /holds a stream: io/,
    reason: "an object whose fields are streams (the CLI's Io) is holding them",
  },
  StreamInAVariable: {
    file: 'src/cluster/probe.ts',
    text: 'export function f(): unknown {\n  const s = process.stdout;\n  return s;\n}\n',
    want: /holds a stream: s/,
    reason: 'the adapter does I/O, but not on the terminal',
  },
  WarningsAsDataPass: {
    file: 'src/app/probe.ts',
    text: "import type { Warn } from './warning.js';\nexport function f(warn: Warn): void {\n  warn({ kind: 'warning', reason: 'x' });\n}\n",
    want: undefined,
    reason: 'reporting a warning as data touches no stream',
  },
  TheCliMayWrite: {
    file: 'src/cli/probe.ts',
    text: "export function f(): void {\n  process.stdout.write('x');\n}\n",
    want: undefined,
    reason: 'the CLI is where output is written',
  },
};

describe('only the CLI writes to a stream', () => {
  // Each probe is its own file of src/ (named after its case), read with the rest of src/.
  const probeFile = (name: string, file: string): string => file.replace(/probe\.ts$/, `probe-${name}.ts`);
  let found: Record<string, string[]> = {};
  beforeAll(() => {
    found = scan(
      Object.fromEntries(Object.entries(PROBES).map(([name, tc]) => [probeFile(name, tc.file), tc.text])),
    );
  }, 300_000);

  it('NoFileOutsideTheCliWritesToOrHoldsAStream', () => {
    const probes = new Set(Object.entries(PROBES).map(([name, tc]) => probeFile(name, tc.file)));
    const real = Object.entries(found).filter(([rel]) => !probes.has(rel));
    const unexpected = Object.fromEntries(real.filter(([rel]) => !(rel in EXCEPTIONS)));
    expect(
      unexpected,
      'report through AppDeps.warn, return the answer, and let src/cli/ print it',
    ).toStrictEqual({});
    // An exception that no longer applies is removed from the list, so the list only ever shrinks.
    const stale = Object.keys(EXCEPTIONS).filter((rel) => !real.some(([r]) => r === rel));
    expect(stale, 'exceptions that hold no stream any more').toStrictEqual([]);
  });

  it.each(Object.entries(PROBES))('%s', (name, tc) => {
    const lines = found[probeFile(name, tc.file)] ?? [];
    if (tc.want === undefined) expect(lines, tc.reason).toStrictEqual([]);
    else expect(lines.join('\n'), tc.reason).toMatch(tc.want);
  });
});
