import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type {
  AccessCheck,
  Cluster,
  ResourceKind,
  RulesReview,
  WatchEvent,
} from '../../../src/port/cluster.js';
import { ApiError } from '../../../src/port/translate-error.js';
import type { DiscoveredResource, KubeObject, PolicyRule } from '../../../src/kube/types.js';
import { runCaptured } from '../../support/run-cli.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const exampleCluster = path.join(repoRoot, 'examples', 'cluster');

export interface Write {
  readonly verb: 'create' | 'update' | 'patch' | 'delete';
  readonly kind: string;
  readonly name: string;
  readonly namespace: string | undefined;
}

function key(kind: string, name: string, ns: string | undefined): string {
  return `${kind}/${ns ?? ''}/${name}`;
}

/** An in-memory cluster: lists what it holds, records every write, answers access checks as told. */
export class FakeCluster implements Cluster {
  readonly describe = 'https://fake.example (context fake)';
  readonly defaultNamespace = 'default';
  readonly writes: Write[] = [];
  readonly checks: AccessCheck[] = [];
  private readonly objects = new Map<string, KubeObject>();
  private uid = 0;

  constructor(
    objects: readonly KubeObject[],
    private readonly access: {
      canI?: (c: AccessCheck) => boolean;
      rules?: readonly PolicyRule[];
    } = {},
  ) {
    for (const o of objects) this.put(o);
  }

  private put(o: KubeObject): KubeObject {
    const stored = {
      ...o,
      metadata: {
        ...o.metadata,
        uid: o.metadata.uid ?? `uid-${++this.uid}`,
        resourceVersion: String(++this.uid),
      },
    };
    this.objects.set(key(o.kind, o.metadata.name, o.metadata.namespace), stored);
    return stored;
  }

  all(kind: string): KubeObject[] {
    return [...this.objects.values()].filter((o) => o.kind === kind);
  }

  list(kind: ResourceKind): Promise<KubeObject[]> {
    return Promise.resolve(this.all(kind.kind));
  }
  get(kind: ResourceKind, name: string, namespace?: string): Promise<KubeObject | undefined> {
    return Promise.resolve(this.objects.get(key(kind.kind, name, namespace)));
  }
  /** What it holds as one SYNCED, then nothing until SIGNAL aborts (its writes are not watched). */
  async *watch(kind: ResourceKind, _opts: unknown, signal: AbortSignal): AsyncGenerator<WatchEvent> {
    yield { type: 'SYNCED', objects: this.all(kind.kind), resourceVersion: String(this.uid) };
    await new Promise((resolve) => {
      if (signal.aborted) resolve(undefined);
      signal.addEventListener('abort', resolve, { once: true });
    });
  }
  create(kind: ResourceKind, obj: KubeObject): Promise<void> {
    this.writes.push({
      verb: 'create',
      kind: kind.kind,
      name: obj.metadata.name,
      namespace: obj.metadata.namespace,
    });
    if (this.objects.has(key(kind.kind, obj.metadata.name, obj.metadata.namespace))) {
      return Promise.reject(new ApiError(409, { message: 'already exists' }, undefined));
    }
    this.put(obj);
    return Promise.resolve();
  }
  replace(kind: ResourceKind, obj: KubeObject): Promise<void> {
    this.writes.push({
      verb: 'update',
      kind: kind.kind,
      name: obj.metadata.name,
      namespace: obj.metadata.namespace,
    });
    this.put(obj);
    return Promise.resolve();
  }
  mergePatch(kind: ResourceKind, name: string, namespace: string | undefined): Promise<KubeObject> {
    this.writes.push({ verb: 'patch', kind: kind.kind, name, namespace });
    return Promise.reject(new Error('patch is not used by bind'));
  }
  delete(kind: ResourceKind, name: string, namespace: string | undefined): Promise<void> {
    this.writes.push({ verb: 'delete', kind: kind.kind, name, namespace });
    this.objects.delete(key(kind.kind, name, namespace));
    return Promise.resolve();
  }
  canI(check: AccessCheck): Promise<boolean> {
    this.checks.push(check);
    return Promise.resolve(this.access.canI?.(check) ?? true);
  }
  rulesReview(): Promise<RulesReview> {
    return Promise.resolve({
      resourceRules: this.access.rules ?? [],
      nonResourceRules: [],
      incomplete: false,
    });
  }
  discoverResources(): Promise<DiscoveredResource[]> {
    return Promise.resolve([]);
  }
}

export interface FakeRunResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
  readonly connected: number;
}

/** Runs the CLI in-process with fake streams and, when given, a fake cluster (no TTY: --yes is needed to write). */
export async function runWithFakes(argv: readonly string[], cluster?: FakeCluster): Promise<FakeRunResult> {
  let connected = 0;
  const r = await runCaptured(argv, {
    connect: () => {
      connected++;
      if (cluster === undefined) return Promise.reject(new Error('the test gave no cluster'));
      return Promise.resolve(cluster);
    },
  });
  return { stdout: r.stdout, stderr: r.stderr, exitCode: r.code, connected };
}

/** A temporary file with the given content; returns its path. */
export function tempFile(name: string, content: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'xrbac-bind-'));
  const file = path.join(dir, name);
  writeFileSync(file, content);
  return file;
}
