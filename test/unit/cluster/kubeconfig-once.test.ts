/**
 * A run across contexts connects once per context: the kubeconfig is parsed once per run (per file and text), and
 * parsed again when its text changed.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';

const parses = vi.hoisted(() => ({ count: 0 }));
vi.mock('yaml', async (original) => {
  const yaml = await original<typeof import('yaml')>();
  return {
    ...yaml,
    parse: (...args: Parameters<typeof yaml.parse>): unknown => {
      parses.count++;
      return yaml.parse(...args);
    },
  };
});

const { contextNames, loadKubeconfig } = await import('../../../src/cluster/connection/kubeconfig.js');

function fleet(servers: readonly string[]): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: servers.map((server, i) => ({ name: `c${String(i)}`, cluster: { server } })),
    users: servers.map((_s, i) => ({ name: `u${String(i)}`, user: { token: `t${String(i)}` } })),
    contexts: servers.map((_s, i) => ({
      name: `ctx-${String(i)}`,
      context: { cluster: `c${String(i)}`, user: `u${String(i)}` },
    })),
  });
}

describe('the kubeconfig of a run across contexts', () => {
  it('is parsed once for its context names and every context, and again when its text changes', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'xrbac-kc-once-')), 'config');
    const servers = ['https://a.example:6443', 'https://b.example:6443', 'https://c.example:6443'];
    writeFileSync(file, fleet(servers));
    const before = parses.count;
    const names = contextNames({ kubeconfig: file }, {});
    expect(names).toEqual(['ctx-0', 'ctx-1', 'ctx-2']);
    const got = names.map((context) => loadKubeconfig({ kubeconfig: file, context }, {}).server);
    expect(got).toEqual(servers);
    expect(parses.count - before).toBe(1);

    writeFileSync(file, fleet(['https://d.example:6443', ...servers.slice(1)]));
    expect(loadKubeconfig({ kubeconfig: file, context: 'ctx-0' }, {}).server).toBe('https://d.example:6443');
    expect(loadKubeconfig({ kubeconfig: file, context: 'ctx-1' }, {}).server).toBe('https://b.example:6443');
    expect(parses.count - before).toBe(2);
  });
});
