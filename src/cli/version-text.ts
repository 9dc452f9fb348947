// What `version` prints, with no parser behind it: the `version` command prints it, and so does main.ts's early
// answer (fast-start.ts), which must not load yargs.

/** version's -o: kubectl version's (json, yaml), and the text line (also as `short`). */
export const VERSION_OUTPUTS = ['text', 'short', 'json', 'yaml'] as const;

export type VersionOutput = (typeof VERSION_OUTPUTS)[number];

/** The JavaScript runtime the plugin runs on. */
export interface Runtime {
  readonly name: 'bun' | 'node';
  readonly version: string;
}

/**
 * The runtime, from `process.versions`: the standalone executable is bun, which also sets `versions.node` (the Node
 * release it is compatible with), so bun is asked first; the npm package runs on Node.
 */
export function runtimeOf(versions: Readonly<Record<string, string | undefined>>): Runtime {
  const bun = versions.bun;
  if (bun !== undefined) return { name: 'bun', version: bun };
  return { name: 'node', version: versions.node ?? 'unknown' };
}

/** The text `version -o OUTPUT` prints for the plugin VERSION running on this process's runtime and platform. */
export function versionText(output: VersionOutput, version: string): string {
  const runtime = runtimeOf(process.versions);
  const info = { gitVersion: version, runtime, platform: `${process.platform}/${process.arch}` };
  if (output === 'json') return `${JSON.stringify({ clientVersion: info }, null, 2)}\n`;
  if (output === 'yaml') {
    return `clientVersion:\n  gitVersion: ${info.gitVersion}\n  runtime:\n    name: ${runtime.name}\n    version: ${runtime.version}\n  platform: ${info.platform}\n`;
  }
  return `kubectl-crossplane-rbac ${version}\n`;
}
