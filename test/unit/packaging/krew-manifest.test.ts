import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { KREW_API_VERSION, validateManifest } from './krew-rules.js';
import { repoRoot } from './release-run.js';

const sha = (c: string) => c.repeat(64);

/** A manifest that follows every rule, written here by hand. */
function validManifest(): Record<string, unknown> {
  return {
    apiVersion: KREW_API_VERSION,
    kind: 'Plugin',
    metadata: { name: 'crossplane-rbac' },
    spec: {
      version: 'v1.2.3',
      homepage: 'https://example.test/home',
      shortDescription: 'Render Crossplane RBAC',
      description: 'Renders the RBAC of Crossplane.\nAnd explains it.\n',
      caveats: 'Writes RBAC objects.\n',
      platforms: [
        {
          selector: { matchLabels: { os: 'linux', arch: 'amd64' } },
          uri: 'https://example.test/a.tar.gz',
          sha256: sha('a'),
          bin: 'kubectl-crossplane_rbac',
        },
        {
          selector: { matchLabels: { os: 'windows', arch: 'amd64' } },
          uri: 'https://example.test/a.zip',
          sha256: sha('b'),
          bin: 'kubectl-crossplane_rbac.exe',
        },
      ],
    },
  };
}

type Spec = Record<string, unknown> & { platforms: Record<string, unknown>[] };

const cases: {
  name: string;
  reason: string;
  mutate: (m: Record<string, unknown>, spec: Spec) => void;
  error: string;
}[] = [
  {
    name: 'WrongApiVersion',
    reason: 'krew reads only the v1alpha2 manifest format',
    mutate: (m) => (m.apiVersion = 'krew.googlecontainertools.github.com/v1alpha1'),
    error: 'apiVersion',
  },
  {
    name: 'WrongKind',
    reason: 'an index holds only Plugin objects',
    mutate: (m) => (m.kind = 'Index'),
    error: 'kind',
  },
  {
    name: 'WrongName',
    reason: 'the manifest must be named after the plugin and its file',
    mutate: (m) => (m.metadata = { name: 'crossplane_rbac' }),
    error: 'metadata.name must be crossplane-rbac',
  },
  {
    name: 'VersionWithoutV',
    reason: "krew's semver parser needs the leading v",
    mutate: (_, s) => (s.version = '1.2.3'),
    error: 'spec.version',
  },
  {
    name: 'PartialVersion',
    reason: 'the version must be a full major.minor.patch',
    mutate: (_, s) => (s.version = 'v1.2'),
    error: 'spec.version',
  },
  {
    name: 'HttpHomepage',
    reason: 'the homepage must be https',
    mutate: (_, s) => (s.homepage = 'http://example.test'),
    error: 'spec.homepage',
  },
  {
    name: 'LongShortDescription',
    reason: 'krew search shows at most 50 characters',
    mutate: (_, s) => (s.shortDescription = 'x'.repeat(51)),
    error: 'at most 50',
  },
  {
    name: 'LongDescriptionLine',
    reason: 'description lines are wrapped at 80 characters',
    mutate: (_, s) => (s.description = `${'y'.repeat(81)}\n`),
    error: 'at most 80',
  },
  {
    name: 'UsageExampleInDescription',
    reason: 'usage belongs in the README, not the description',
    mutate: (_, s) => (s.description = 'Renders RBAC.\n  kubectl crossplane-rbac sync -f dir\n'),
    error: 'usage examples',
  },
  {
    name: 'NoCaveats',
    reason: 'our manifest must warn that sync and bind write RBAC',
    mutate: (_, s) => delete s.caveats,
    error: 'caveats',
  },
  {
    name: 'NoPlatforms',
    reason: 'a plugin must install somewhere',
    mutate: (_, s) => (s.platforms = []),
    error: 'platforms must not be empty',
  },
  {
    name: 'HttpUri',
    reason: 'archives must be downloaded over https',
    mutate: (_, s) => (s.platforms[0]!.uri = 'http://example.test/a.tar.gz'),
    error: 'uri',
  },
  {
    name: 'UppercaseSha',
    reason: 'krew accepts only lowercase hex sha256 sums',
    mutate: (_, s) => (s.platforms[0]!.sha256 = sha('A')),
    error: 'sha256',
  },
  {
    name: 'ShortSha',
    reason: 'a sha256 has 64 hex characters',
    mutate: (_, s) => (s.platforms[0]!.sha256 = 'abc'),
    error: 'sha256',
  },
  {
    name: 'NoBin',
    reason: 'krew must know which file to link',
    mutate: (_, s) => delete s.platforms[0]!.bin,
    error: 'bin is required',
  },
  {
    name: 'WindowsBinWithoutExe',
    reason: 'windows runs only .exe plugins',
    mutate: (_, s) => (s.platforms[1]!.bin = 'kubectl-crossplane_rbac'),
    error: '.exe',
  },
  {
    name: 'SelectorOnOtherKey',
    reason: 'krew selects platforms by os and arch only',
    mutate: (_, s) => (s.platforms[0]!.selector = { matchLabels: { os: 'linux', distro: 'debian' } }),
    error: 'selector key "distro"',
  },
  {
    name: 'EmptySelector',
    reason: 'an empty selector matches everything',
    mutate: (_, s) => (s.platforms[0]!.selector = {}),
    error: 'empty selector',
  },
  {
    name: 'OverlappingSelectors',
    reason: 'linux/amd64 matched twice: krew would silently take the first',
    mutate: (_, s) => (s.platforms[1]!.selector = { matchLabels: { os: 'linux' } }),
    error: 'both match linux/amd64',
  },
  {
    name: 'OverlapThroughExpressions',
    reason: 'a NotIn expression also covers the windows entry',
    mutate: (_, s) =>
      (s.platforms[0]!.selector = {
        matchExpressions: [{ key: 'os', operator: 'NotIn', values: ['darwin'] }],
      }),
    error: 'both match windows/amd64',
  },
];

describe('validateManifest', () => {
  it('ValidManifest: a manifest that follows every rule passes', () => {
    expect(validateManifest(validManifest())).toEqual([]);
  });

  it.each(cases)('$name', ({ mutate, error, reason }) => {
    const m = validManifest();
    mutate(m, m.spec as Spec);
    const errors = validateManifest(m);
    expect(errors.join('\n'), reason).toContain(error);
  });
});

describe('the shipped manifests', () => {
  it('CommittedPluginYaml: the committed plugin.yaml follows every krew rule', () => {
    const doc: unknown = parse(readFileSync(join(repoRoot, 'plugin.yaml'), 'utf8'));
    expect(validateManifest(doc)).toEqual([]);
  });

  it('CommittedPluginYamlMatchesPackage: plugin.yaml is for the version in package.json', () => {
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    const doc = parse(readFileSync(join(repoRoot, 'plugin.yaml'), 'utf8')) as { spec: { version: string } };
    expect(doc.spec.version).toBe(`v${pkg.version}`);
  });

  it('CommittedPluginYamlIsComplete: every platform, with a real sha256 (the release, not a draft)', () => {
    const doc = parse(readFileSync(join(repoRoot, 'plugin.yaml'), 'utf8')) as {
      spec: { platforms: { selector: { matchLabels: Record<string, string> }; sha256: string }[] };
    };
    const labels = doc.spec.platforms.map(
      (p) => `${p.selector.matchLabels.os}/${p.selector.matchLabels.arch}`,
    );
    expect(labels).toEqual(['linux/amd64', 'linux/arm64', 'darwin/amd64', 'darwin/arm64']);
    for (const p of doc.spec.platforms) expect(p.sha256).not.toMatch(/^0+$/);
  });
});
