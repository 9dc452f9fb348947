// Every command's --help as a new user reads it, through the built plugin and the real kubectl: a description, 3 to
// 5 examples that run as written from a clone (offline: each reads examples/cluster with -f, and the kubeconfig
// points at a port nothing listens on), the command's own flags, and kubectl's closing tip naming `options`, which
// lists the connection flags under kubectl's own spellings.
import { execFile } from 'node:child_process';
import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  assertBuilt,
  binDir,
  kubectl,
  repoRoot,
  tempDir,
  writeKubeconfig,
  type RunResult,
} from './harness.js';

const PROGRAM = 'kubectl crossplane-rbac';
/**
 * kubectl's closing tip, as its help templates word it (kubernetes/kubernetes@16913111deb1a4c4ff76f4ba7ffd9ebef397a303
 * staging/src/k8s.io/kubectl/pkg/util/templates/templates.go, SectionTipsGlobalOptions), checked below against
 * the installed kubectl's own help too.
 */
const OPTIONS_TIP = (program: string): string =>
  `Use "${program} options" for a list of global command-line options (applies to all commands).`;

/** Examples that exit with something else than 0, and why. */
const EXIT: Readonly<Record<string, number>> = {
  // --check: exit 1 when the cluster differs from what sync would make, and nothing was synced on the example.
  [`${PROGRAM} sync -f examples/cluster --check`]: 1,
  // A denied request: crossplane-admin aggregates the provider roles sync has not made yet on the example.
  [`${PROGRAM} explain --subject Group:crossplane:masters --for buckets.s3.aws.upbound.io --verb delete -f examples/cluster`]: 1,
  // --fail-on: critical paths to cluster-admin remain for the group bound to crossplane-edit.
  [`${PROGRAM} audit -f examples/cluster -f examples/audit --fail-on critical`]: 1,
};

/** `options` has one example, as `kubectl options` has; every other command 3 to 5. */
const EXAMPLE_COUNT: Readonly<Record<string, readonly [number, number]>> = { options: [1, 1] };

interface Help {
  readonly text: string;
  readonly examples: readonly string[];
}

const scratch = tempDir('xrbac-help-');
const home = join(scratch, 'home');
const helps = new Map<string, Help>();
let commands: string[] = [];

function parseHelp(text: string): Help {
  const lines = text.split('\n');
  const start = lines.indexOf('Examples:');
  const examples: string[] = [];
  if (start >= 0) {
    for (const line of lines.slice(start + 1)) {
      if (line !== '' && !line.startsWith('  ')) break;
      if (line === '' || line.startsWith('  # ')) continue;
      examples.push(line.slice(2));
    }
  }
  return { text, examples };
}

/** Runs LINE as the user's shell would, from the scratch copy, with the plugin on PATH. */
function shell(line: string, kubeconfig: string): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-o', 'pipefail', '-c', line],
      {
        cwd: scratch,
        env: {
          PATH: `${binDir}:${process.env.PATH ?? ''}`,
          HOME: home,
          KUBECONFIG: kubeconfig,
          NO_COLOR: '1',
        },
        timeout: 60_000,
        maxBuffer: 64 * 1024 * 1024,
      },
      (err, stdout, stderr) => {
        resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, stdout, stderr });
      },
    );
  });
}

beforeAll(async () => {
  assertBuilt();
  symlinkSync(join(repoRoot, 'examples'), join(scratch, 'examples'));
  const top = await kubectl(['crossplane-rbac', '--help']);
  expect(top.code, top.stderr).toBe(0);
  commands = [...top.stdout.matchAll(new RegExp(`^ {2}${PROGRAM} ([a-z-]+)`, 'gm'))].map((m) => m[1] ?? '');
  for (const command of commands) {
    const r = await kubectl(['crossplane-rbac', command, '--help']);
    expect(r.code, r.stderr).toBe(0);
    helps.set(command, parseHelp(r.stdout));
  }
}, 120_000);

describe('--help of each command', () => {
  it('lists the commands, options among them', () => {
    expect(commands).toEqual(expect.arrayContaining(['sync', 'who-can', 'explain', 'bind', 'options']));
  });

  it('opens with a paragraph on what the command does, not with flags', () => {
    for (const [command, help] of helps) {
      const first = help.text.split('\n\n')[0] ?? '';
      // Not a group of flags ("Fleet flags (...):", "Options:"), not the usage line.
      expect(first, command).not.toMatch(/^[A-Za-z ()-]+:$|^kubectl crossplane-rbac/m);
      expect(first.split(/\s+/).length, command).toBeGreaterThan(15);
    }
  });

  it('has 3 to 5 examples, each a comment line and one whole command line, not wrapped', () => {
    for (const [command, help] of helps) {
      const [least, most] = EXAMPLE_COUNT[command] ?? [3, 5];
      expect(help.examples.length, command).toBeGreaterThanOrEqual(least);
      expect(help.examples.length, command).toBeLessThanOrEqual(most);
      for (const line of help.examples) expect(line, command).toContain(`${PROGRAM} `);
    }
  });

  it("lists the command's own flags first and no connection flag; ends with kubectl's tip naming options", () => {
    for (const [command, help] of helps) {
      const flags = help.text.slice(help.text.indexOf('\nOptions:'));
      expect(flags, command).not.toContain('--kubeconfig');
      expect(flags, command).not.toContain('--insecure-skip-tls-verify');
      // -o and -h close the command's own flags.
      const own = flags.split('\n\n')[0] ?? '';
      expect(own.trimEnd().split('\n').at(-1), command).toMatch(/^ {2}-h, --help/);
      expect(help.text.trimEnd().split('\n').at(-1), command).toBe(OPTIONS_TIP(PROGRAM));
    }
  });

  it('words the tip as the installed kubectl does', async () => {
    const real = await kubectl(['auth', 'can-i', '--help']);
    expect(real.stdout.trimEnd().split('\n').at(-1)).toBe(OPTIONS_TIP('kubectl'));
  });

  it('who-can --help opens with what it does (it opened with its fleet flags)', () => {
    expect(helps.get('who-can')?.text).toMatch(/^Lists every subject/);
  });
});

describe('every help example', () => {
  it('runs on examples/cluster, offline, and exits as expected', async () => {
    const offline = writeKubeconfig(scratch, 'https://127.0.0.1:1');
    const ran: string[] = [];
    for (const [command, help] of helps) {
      for (const line of help.examples) {
        const r = await shell(line, offline);
        expect(r.code, `${command}: ${line}\n${r.stderr}`).toBe(EXIT[line] ?? 0);
        if (r.code !== 0) expect(r.stderr, line).not.toMatch(/^error: /m);
        ran.push(line);
      }
    }
    // Every exception is an example still shown.
    for (const line of Object.keys(EXIT)) expect(ran).toContain(line);
  }, 300_000);
});

describe('help and options', () => {
  it('help is the top-level help; help COMMAND is the command help, as kubectl takes them', async () => {
    const top = await kubectl(['crossplane-rbac', '--help']);
    expect(await kubectl(['crossplane-rbac', 'help'])).toStrictEqual(top);
    const whoCan = await kubectl(['crossplane-rbac', 'who-can', '--help']);
    expect(await kubectl(['crossplane-rbac', 'help', 'who-can'])).toStrictEqual(whoCan);
    // kubectl's own: `kubectl help get` is `kubectl get --help`.
    expect((await kubectl(['help', 'get'])).stdout).toBe((await kubectl(['get', '--help'])).stdout);
  });

  it('help with an unknown command is an error naming it, exit 2', async () => {
    const r = await kubectl(['crossplane-rbac', 'help', 'who-cna']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: unknown command "who-cna"/);
    expect(r.stderr).toContain('who-can');
  });

  it("options lists the connection flags under kubectl's spellings, as kubectl options does", async () => {
    const ours = await kubectl(['crossplane-rbac', 'options']);
    expect(ours.code, ours.stderr).toBe(0);
    const theirs = await kubectl(['options']);
    const heading = (text: string): string => text.split('\n')[0] ?? '';
    expect(heading(ours.stdout)).toBe(heading(theirs.stdout));
    const names = (text: string): string[] =>
      [...text.matchAll(/^ {4}((?:-[a-z], )?--[a-z-]+)=/gm)].map((m) => m[1] ?? '');
    const kubectlNames = names(theirs.stdout);
    const connection = [
      '--kubeconfig',
      '--context',
      '--cluster',
      '--user',
      '-n, --namespace',
      '-s, --server',
      '--token',
      '--username',
      '--password',
      '--certificate-authority',
      '--client-certificate',
      '--client-key',
      '--insecure-skip-tls-verify',
      '--tls-server-name',
      '--disable-compression',
      '--as',
      '--as-group',
      '--as-uid',
      '--request-timeout',
      '-v, --v',
      '--warnings-as-errors',
    ];
    expect(kubectlNames).toEqual(expect.arrayContaining(connection));
    expect(names(ours.stdout)).toEqual(expect.arrayContaining(connection));
    // The plugin's own global flags are there too.
    expect(names(ours.stdout)).toEqual(
      expect.arrayContaining(['--stack-traces', '--color', '--max-input-size']),
    );
  });

  it('a connection flag still works on a command, and completion still offers it', async () => {
    const r = await kubectl([
      'crossplane-rbac',
      'who-can',
      'get',
      'pods',
      '--kubeconfig',
      join(scratch, 'none'),
    ]);
    expect(r.stderr).not.toMatch(/unknown flag/);
    const complete = await kubectl(['crossplane-rbac', '__complete', 'who-can', '--kubec']);
    expect(complete.stdout.split('\n')).toContain('--kubeconfig');
  });
});

describe('npm start', () => {
  it('ends with a next step to try, which runs', async () => {
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const start = pkg.scripts.start ?? '';
    // What follows the sync of examples/cluster: the lines printed after it.
    const tail = start.slice(
      start.indexOf(' sync -f examples/cluster && ') + ' sync -f examples/cluster && '.length,
    );
    const offline = writeKubeconfig(scratch, 'https://127.0.0.1:1');
    const printed = await shell(tail, offline);
    expect(printed.code).toBe(0);
    const next = /try: (.*)$/m.exec(printed.stdout)?.[1];
    expect(next).toBe('kubectl crossplane-rbac explain crossplane-edit -f examples/cluster');
    expect(printed.stdout).toContain('export PATH=$PWD/dist/bin:$PATH');
    const r = await shell(next ?? 'false', offline);
    expect(r.code, r.stderr).toBe(0);
  });
});
