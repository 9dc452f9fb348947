// The krew manifest of a release, rendered from scripts/plugin.yaml.tmpl.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { platform, root } from './platforms.js';

const HOMEPAGE = 'https://github.com/kubectl-crossplane-rbac/kubectl-crossplane-rbac';

/** One platform of the manifest. */
export interface ManifestEntry {
  readonly os: string;
  readonly arch: string;
  readonly archive: string;
  readonly sha256: string;
  readonly bin: string;
}

/**
 * The caveats for PLATFORMS: a fixed text, so that the manifest is the same whatever this machine could run (the
 * release log and release.json say what ran).
 */
export function caveats(platforms: readonly string[], standalone: readonly string[]): string {
  const names = (list: readonly string[]): string =>
    list.map((p) => `${platform(p).os}/${platform(p).arch}`).join(', ');
  const bundled = platforms.filter((p) => !standalone.includes(p));
  const mac = platforms.filter((p) => standalone.includes(p) && platform(p).os === 'darwin');
  const lines: string[] = [];
  if (bundled.length > 0) {
    lines.push(
      `On ${names(bundled)} this plugin is a JavaScript bundle, not a`,
      'standalone executable: it needs Node.js 20.19 or newer on PATH.',
    );
  }
  if (mac.length > 0) {
    lines.push(
      'The macOS executables are built on Linux: their code signatures and',
      'the JavaScript they embed are verified there, but they were not run',
      'on a Mac before this release.',
    );
  }
  return lines.map((l) => `    ${l}`).join('\n');
}

export function renderManifest({
  version,
  entries,
  caveatText,
}: {
  readonly version: string;
  readonly entries: readonly ManifestEntry[];
  readonly caveatText: string;
}): string {
  const tmpl = readFileSync(join(root, 'scripts', 'plugin.yaml.tmpl'), 'utf8');
  const platforms = entries
    .map((e) =>
      [
        '    - selector:',
        '        matchLabels:',
        `          os: ${e.os}`,
        `          arch: ${e.arch}`,
        `      uri: ${HOMEPAGE}/releases/download/${version}/${e.archive}`,
        `      sha256: '${e.sha256}'`,
        `      bin: ${e.bin}`,
      ].join('\n'),
    )
    .join('\n');
  return tmpl
    .replaceAll('{{version}}', version)
    .replaceAll('{{homepage}}', HOMEPAGE)
    .replace('{{caveats}}\n', caveatText === '' ? '' : `${caveatText}\n`)
    .replace('{{platforms}}', platforms);
}
