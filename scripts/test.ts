// `npm test`: every check, then every test project in one vitest run.
//
//   1. npm run build: the bundles (dist/bin, dist/standalone) the release and the tests run.
//   2. Two lanes at once (one per core of a 2-core machine; each step is one mostly single-threaded process):
//      typecheck-lint (tsc's diagnostics, then ESLint, on one TypeScript program: scripts/typecheck-lint.ts), knip,
//      lint:links (the docs' relative links and anchors) | release:test (the release of every default platform,
//      dist/release-test: the standalone executables bun compiles), format:check. CPU seconds of each step, the two
//      lanes at once on a 2-core machine under a load of 5 to 6 from other work (2026-11-29, four runs):
//      typecheck-lint 65-74 (before: lint 71-78 and typecheck 23-24, each building its own program); release 26-29
//      (most of it gzip -9 of four ~110 MB executables: the archives users download); format:check 18-20.5; knip
//      8-11; lint:links 1-1.7. The phase: 155 CPU-s before. In a quiet gate (2026-11-29 00:26) the lanes took
//      typecheck-lint 62.2 s | release 47.3, format:check 18.3, knip 5.9, lint:links 0.9 (73 s, against ~103 before
//      with lint and typecheck apart): knip and lint:links now follow typecheck-lint, which evens the lanes.
//      Every step runs; the output of each is printed when it ends; any failure stops here, before the tests.
//   3. vitest run, with E2E_STANDALONE_DIR and RELEASE_DIR set: the e2e project runs the built bundle, the
//      e2e-standalone project (vitest.config.ts) the e2e files whose code differs between runtimes against that
//      release's linux-amd64 executable, in the same run, and the packaging tests read that release instead of
//      making their own. One release for the whole gate: before, the gate compiled linux-amd64 for the e2e files,
//      then the release tests compiled every platform again (linux-amd64 a second time).
//
// `npm run test:quick` (--quick), the inner loop: typecheck-lint, then the unit and integration projects. No build,
// no release, no e2e. (It ran lint | typecheck at once: lint alone costs more than typecheck-lint, 71-78 CPU-s
// against 65-74, as its project service also loads a default project for the two JavaScript config files.)
//
// One after another (the `&&` chain this replaces), the checks left a core idle for about two minutes, and the
// standalone pass waited for its own vitest run after the first.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { root } from './release/platforms.js';

interface Done {
  readonly name: string;
  readonly code: number;
  readonly seconds: number;
}

/** Runs `npm run SCRIPT`, its stdout and stderr kept, and prints them (with how long it took) once it ends. */
function npmRun(script: string, env: NodeJS.ProcessEnv = process.env): Promise<Done> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => out.push(b));
    const end = (code: number): void => {
      const seconds = (Date.now() - started) / 1000;
      process.stdout.write(
        `\n> npm run ${script} (${seconds.toFixed(1)} s${code === 0 ? '' : `, exit ${String(code)}`})\n`,
      );
      process.stdout.write(Buffer.concat(out));
      resolve({ name: script, code, seconds });
    };
    child.on('error', (err) => {
      out.push(Buffer.from(`${err.message}\n`));
      end(127);
    });
    child.on('close', (code, signal) => {
      end(code ?? (signal !== null ? 128 : 1));
    });
  });
}

const quick = process.argv.includes('--quick');

/** Runs each lane's scripts one after another, the lanes at once; every script runs. */
async function lanes(...scripts: readonly (readonly string[])[]): Promise<Done[]> {
  const results = await Promise.all(
    scripts.map(async (lane) => {
      const done: Done[] = [];
      for (const script of lane) done.push(await npmRun(script));
      return done;
    }),
  );
  return results.flat();
}

function stopOnFailure(done: readonly Done[]): void {
  const failed = done.filter((d) => d.code !== 0);
  if (failed.length === 0) return;
  process.stderr.write(
    `\n${quick ? 'npm run test:quick' : 'npm test'}: failed: ${failed.map((d) => `npm run ${d.name}`).join(', ')}\n`,
  );
  process.exit(1);
}

/** Runs vitest with ARGS and ENV, and exits with its exit code. */
function vitest(args: readonly string[], env: NodeJS.ProcessEnv): void {
  const child = spawn(join(root, 'node_modules', '.bin', 'vitest'), ['run', ...args], {
    cwd: root,
    env,
    stdio: 'inherit',
  });
  child.on('close', (code, signal) => {
    process.exit(code ?? (signal !== null ? 128 : 1));
  });
}

if (quick) {
  stopOnFailure(await lanes(['typecheck-lint']));
  vitest(['--project', 'unit*', '--project', 'integration'], process.env);
} else {
  const release = join(root, 'dist', 'release-test');
  stopOnFailure([await npmRun('build')]);
  stopOnFailure(await lanes(['typecheck-lint', 'knip', 'lint:links'], ['release:test', 'format:check']));
  vitest([], { ...process.env, E2E_STANDALONE_DIR: join(release, 'linux-amd64'), RELEASE_DIR: release });
}
