// `version -o json|yaml` names the runtime truthfully: the standalone executable is bun (which also sets
// process.versions.node, the Node release it is compatible with, so a `nodeVersion` there would be false), the npm
// package runs on Node. The bun path through the real executable is test/e2e/shell.test.ts in the e2e-standalone
// project (E2E_BIN_DIR set; npm test runs it); here the Node path, in-process under vitest's Node.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runtimeOf } from '../../../src/cli/version-text.js';
import { runCaptured } from '../../support/run-cli.js';

describe('runtimeOf', () => {
  it.each([
    {
      name: 'Bun',
      versions: { node: '26.3.0', bun: '1.4.5', modules: '137' },
      want: { name: 'bun', version: '1.4.5' },
      reason: 'bun 1.4.5 reports versions.node 26.3.0 too (its Node compatibility): bun is what runs',
    },
    {
      name: 'Node',
      versions: { node: '20.20.2', v8: '11.3.244.8-node.33' },
      want: { name: 'node', version: '20.20.2' },
      reason: 'Node sets versions.node and no versions.bun',
    },
  ])('$name', ({ versions, want, reason }) => {
    expect(runtimeOf(versions), reason).toStrictEqual(want);
  });
});

describe('version -o json and -o yaml under Node', () => {
  it('names node and the version of the Node running it, never a nodeVersion', async () => {
    const json = await runCaptured(['version', '-o', 'json']);
    expect(json.code).toBe(0);
    const info = (JSON.parse(json.stdout) as { clientVersion: Record<string, unknown> }).clientVersion;
    expect(info).toStrictEqual({
      gitVersion: 'v0.0.0-test',
      runtime: { name: 'node', version: process.versions.node },
      platform: `${process.platform}/${process.arch}`,
    });
    expect(process.versions.node).toMatch(/^\d+\.\d+\.\d+$/);
    const yaml = await runCaptured(['version', '-o', 'yaml']);
    expect(parse(yaml.stdout)).toStrictEqual({ clientVersion: info });
  });
});
