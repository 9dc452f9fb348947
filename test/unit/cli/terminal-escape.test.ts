/**
 * Lines written to stderr (warnings, refusals) escape the names in them, and -o json keeps them exact. The escapes
 * are Go's strconv.Quote ones (golang/go src/strconv/quote.go@1bfcc11beb5d91ea391237644a39119a45615b7a): ESC \x1b,
 * BEL \a, U+202E \u202e.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { inquirerPrompter } from '../../../src/cli/output/prompt.js';
import { DEFAULT_MAX_INPUT_SIZE, readManifests } from '../../../src/input/read-manifests.js';
import type { KubeObject } from '../../../src/kube/types.js';
import { exampleCluster, FakeCluster, runWithFakes } from './bind-fakes.js';

// The prompts' packages, replaced to see what they are asked to show.
const shown = vi.hoisted(() => [] as unknown[]);
vi.mock('@inquirer/confirm', () => ({
  default: (opts: unknown) => {
    shown.push(opts);
    return Promise.resolve(true);
  },
}));
vi.mock('@inquirer/checkbox', () => ({
  default: (opts: { choices: { value: string }[] }) => {
    shown.push(opts);
    return Promise.resolve(opts.choices.map((c) => c.value));
  },
}));

let examples: KubeObject[];
beforeAll(async () => {
  ({ objects: examples } = await readManifests([exampleCluster], {
    readStdin: () => Promise.resolve(''),
    maxBytes: DEFAULT_MAX_INPUT_SIZE,
  }));
});

/** Retitles the terminal window, then reverses the rest of the line. */
const ROLE = 'ghost\u001b]0;owned\u0007\u202e';
const BIDI_CONTROLS = new Set([
  0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069,
]);
/** Whether TEXT holds a raw terminal control: a C0 control but the line feed, DEL, a C1 control, a bidi control. */
function hasRawControl(text: string): boolean {
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 0;
    if ((c < 0x20 && c !== 0x0a) || (c >= 0x7f && c <= 0x9f) || BIDI_CONTROLS.has(c)) return true;
  }
  return false;
}

describe('terminal escaping of stderr lines', () => {
  it('BindWarningNamesAMissingRoleEscaped', async () => {
    const argv = [
      'bind',
      '--root-sync',
      'root-sync',
      '--role-ref',
      `ClusterRole/${ROLE}`,
      '--allow-privileged',
      '--allow-missing',
    ];
    const r = await runWithFakes([...argv, '--dry-run=client'], new FakeCluster(examples));
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'warning: ClusterRole ghost\\x1b]0;owned\\a\\u202e does not exist (--allow-missing): its binding grants nothing until it does\n',
    );
    expect(hasRawControl(r.stderr)).toBe(false);
    expect(hasRawControl(r.stdout)).toBe(false);

    const json = await runWithFakes([...argv, '--dry-run=client', '-o', 'json'], new FakeCluster(examples));
    expect(json.exitCode, json.stderr).toBe(0);
    const list = JSON.parse(json.stdout) as { items: { roleRef: { name: string } }[] };
    expect(list.items.map((b) => b.roleRef.name)).toContain(ROLE);
  });

  it('PromptsShowEscapedTextAndReturnExactValues', async () => {
    shown.length = 0;
    await inquirerPrompter.confirm('apply: 3 writes on https://evil\u001b]0;x\u0007:6443. Continue?');
    const picked = await inquirerPrompter.checkbox('Namespaces', [
      { name: `team-a (enables ${ROLE})`, value: ROLE },
    ]);
    expect(shown).toStrictEqual([
      { message: 'apply: 3 writes on https://evil\\x1b]0;x\\a:6443. Continue?', default: false },
      {
        message: 'Namespaces',
        choices: [{ name: 'team-a (enables ghost\\x1b]0;owned\\a\\u202e)', value: ROLE }],
        required: true,
        pageSize: 15,
      },
    ]);
    expect(picked).toStrictEqual([ROLE]);
  });
});
