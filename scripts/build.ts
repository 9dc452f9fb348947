// Bundles src/main.ts twice, from the same sources and settings:
// - dist/bin/kubectl-crossplane_rbac: the executable of the npm package (Node.js), ESM, with the modules the sources
//   import lazily in dist/bin/chunks/ (each command loads only what it reaches);
// - dist/standalone/: two CommonJS files `npm run release` compiles into the standalone executables with bun's
//   bytecode cache (which needs CommonJS: no top-level await, no import.meta): kubectl-crossplane_rbac.cjs (main.ts,
//   the entry) and kubectl-crossplane_rbac-root.cjs (src/composition-root.ts and all it imports), which the entry
//   require()s only for a command line it does not answer itself.
// Each holds every library the plugin uses, so the npm package has no runtime dependencies.
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
const BUNDLE = join(root, 'dist', 'bin', 'kubectl-crossplane_rbac');
const STANDALONE_ENTRY = join(root, 'dist', 'standalone', 'kubectl-crossplane_rbac.cjs');
/** The composition root's file beside it, required by the entry by this relative name. */
export const STANDALONE_ROOT_NAME = 'kubectl-crossplane_rbac-root.cjs';
const STANDALONE_ROOT = join(dirname(STANDALONE_ENTRY), STANDALONE_ROOT_NAME);

/**
 * string-width with a fast path for printable ASCII, in front of every copy the libraries bring: yargs measures
 * every help line with it (also when it runs a command, whose help it caches), and the real function is slow to
 * load (each copy builds an Intl.Segmenter and Unicode property regexes when it is loaded). For printable ASCII
 * the width is the length; anything else goes to the real function, loaded on first use.
 */
const fastStringWidth: Plugin = {
  name: 'fast-string-width',
  setup(b) {
    b.onResolve({ filter: /^string-width$/ }, async (args) => {
      if ((args.pluginData as { real?: boolean } | undefined)?.real === true) return undefined;
      const real = await b.resolve('string-width', {
        resolveDir: args.resolveDir,
        kind: args.kind,
        pluginData: { real: true },
      });
      if (real.errors.length > 0) return { errors: real.errors };
      return { path: real.path, namespace: 'fast-string-width' };
    });
    // CommonJS, so that require() loads the real (ESM) module lazily; importers get the function as default export.
    b.onLoad({ filter: /.*/, namespace: 'fast-string-width' }, (args) => ({
      contents: [
        'const PRINTABLE_ASCII = /^[\\x20-\\x7e]*$/;',
        'let real;',
        'module.exports = function stringWidth(text, options) {',
        "  if (typeof text === 'string' && PRINTABLE_ASCII.test(text)) return text.length;",
        `  real ??= require(${JSON.stringify(args.path)}).default;`,
        '  return real(text, options);',
        '};',
      ].join('\n'),
      loader: 'js',
      resolveDir: root,
    }));
  },
};

/**
 * yargs' factory calls `version()` on every instance it makes, which guesses a version by walking up from the
 * working directory (the bundle has no node_modules to start from) and listing every directory on the way to find a
 * package.json. The plugin turns the version option off (`.version(false)`) and never needed that guess: the walk cost
 * start-up time that grew with the user's directories (20 ms from a folder of 8,000 entries) and read a stranger's
 * package.json. The call is dropped from the factory; a yargs whose factory no longer has it fails the build.
 */
const noVersionGuess: Plugin = {
  name: 'yargs-no-version-guess',
  setup(b) {
    b.onLoad({ filter: /[\\/]yargs[\\/]build[\\/]lib[\\/]yargs-factory\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const call = '        yargs.version();\n        return yargs;';
      if (source.split(call).length !== 2) {
        return {
          errors: [{ text: `yargs-no-version-guess: ${args.path} no longer has "yargs.version();" once` }],
        };
      }
      return { contents: source.replace(call, '        return yargs;'), loader: 'js' };
    });
  },
};

const MAIN = join(root, 'src', 'main.ts');
const COMPOSITION_ROOT = join(root, 'src', 'composition-root.ts');

/**
 * In the standalone entry, main.ts's import of the composition root stays a require() of the file built beside it
 * (STANDALONE_ROOT_NAME) instead of being bundled in; anything else importing it fails the build.
 */
const separateRoot: Plugin = {
  name: 'separate-composition-root',
  setup(b) {
    b.onResolve({ filter: /[\\/]composition-root\.js$/ }, (args) => {
      if (args.importer !== MAIN || args.kind !== 'dynamic-import')
        return {
          errors: [{ text: `${args.importer} imports the composition root; only main.ts may, lazily` }],
        };
      return { path: `./${STANDALONE_ROOT_NAME}`, external: true };
    });
  },
};

const common = {
  entryPoints: [MAIN],
  bundle: true,
  platform: 'node',
  target: 'node20',
  minify: true,
  keepNames: true,
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
  define: { __VERSION__: JSON.stringify(`v${pkg.version}`) },
  plugins: [fastStringWidth, noVersionGuess],
} satisfies BuildOptions;

/**
 * The top-level help exactly as runCli prints it off a terminal (no width to wrap to), for main.ts to print
 * without loading the parser (src/cli/fast-start.ts). The same sources render it, so it cannot go stale.
 */
async function rootHelp(version: string): Promise<string> {
  const { runCli } = await import('../src/cli/app.js');
  let out = '';
  const refuse = (): Promise<never> => Promise.reject(new Error('--help needs no cluster and no prompt'));
  await runCli(['--help'], {
    io: {
      stdout: { write: (s: string) => (out += s) },
      stderr: { write: () => true },
      readStdin: refuse,
      stdoutIsTTY: false,
      stderrIsTTY: false,
      stdinIsTTY: false,
      env: {},
    },
    connect: refuse,
    prompter: { confirm: refuse, checkbox: refuse },
    version,
  });
  return out;
}

/** Writes both bundles. */
export async function buildBundles(): Promise<void> {
  const define = { ...common.define, __ROOT_HELP__: JSON.stringify(await rootHelp(`v${pkg.version}`)) };
  // The npm package's executable and the chunks it imports (`await import()` in the sources): Node compiles only the
  // code a command reaches, so --help, version and -f runs never compile the client library.
  const binDir = dirname(BUNDLE);
  rmSync(binDir, { recursive: true, force: true });
  mkdirSync(binDir, { recursive: true });
  const entry = `${basename(BUNDLE)}.mjs`;
  const result = await build({
    ...common,
    define,
    entryPoints: { [basename(BUNDLE)]: MAIN },
    outdir: binDir,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    splitting: true,
    format: 'esm',
    metafile: true,
    banner: {
      // Some bundled CommonJS dependencies call require(); give them one.
      js: "#!/usr/bin/env node\nimport { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
  });
  // The executable's name has no extension; no chunk may import it by the name it was written under.
  for (const [out, meta] of Object.entries(result.metafile.outputs)) {
    if (meta.imports.some((i) => basename(i.path) === entry))
      throw new Error(`${out} imports the entry point`);
  }
  renameSync(join(binDir, entry), BUNDLE);
  chmodSync(BUNDLE, 0o755);
  console.log(`built ${BUNDLE}`);

  // Two files: the entry (main.ts: the early answers) and the composition root it requires for everything else.
  // bun compiles both into the executable as separate modules, so `version` and `--help` load only the first.
  mkdirSync(dirname(STANDALONE_ENTRY), { recursive: true });
  const standalone = {
    ...common,
    format: 'cjs',
    // Bundled ESM libraries (yargs) ask import.meta.url for their own location; CommonJS knows it as __filename.
    define: { ...define, 'import.meta.url': '__import_meta_url' },
    banner: { js: "var __import_meta_url = require('node:url').pathToFileURL(__filename).href;" },
  } satisfies BuildOptions;
  await build({ ...standalone, outfile: STANDALONE_ENTRY, plugins: [...common.plugins, separateRoot] });
  await build({ ...standalone, entryPoints: [COMPOSITION_ROOT], outfile: STANDALONE_ROOT });
  console.log(`built ${STANDALONE_ENTRY}`);
}

// Run as a script (`npm run build`), not when imported by scripts/release.ts.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  await buildBundles();
