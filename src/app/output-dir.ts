/**
 * `sync --output-dir DIR`: the objects sync would apply, one YAML file per object plus a kustomization.yaml listing
 * them, for a GitOps engine (Argo CD, Flux, Config Sync) to apply. Deterministic: the same objects give the same
 * bytes. Objects a run would prune are simply absent (the engine prunes); files an earlier render wrote and this
 * one does not are removed, so the directory is exactly this render.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { UserError } from '../errors.js';
import { compareStrings } from '../kube/order.js';
import type { KubeObject } from '../kube/types.js';

export const KUSTOMIZATION = 'kustomization.yaml';

/** A name safe on every filesystem: lower-case letters, digits, `.`, `-`, `_`; anything else becomes `_`. */
function safe(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9._-]/g, '_');
}

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}

/**
 * The file of each object, `<kind>-<name>.yaml` (`<kind>-<namespace>-<name>.yaml` for namespaced objects), made safe;
 * names that only differ in what was made safe get a short hash of the object's key. Sorted by file name.
 */
export function manifestFiles(objects: readonly KubeObject[]): { file: string; object: KubeObject }[] {
  const named = objects.map((o) => {
    const ns = o.metadata.namespace;
    const key = `${o.kind}/${ns ?? ''}/${o.metadata.name}`;
    const base = safe(`${o.kind}-${ns !== undefined && ns !== '' ? `${ns}-` : ''}${o.metadata.name}`);
    return { key, base, object: o };
  });
  const count = new Map<string, number>();
  for (const n of named) count.set(n.base, (count.get(n.base) ?? 0) + 1);
  return named
    .map((n) => ({
      file: `${(count.get(n.base) ?? 0) > 1 ? `${n.base}-${shortHash(n.key)}` : n.base}.yaml`,
      object: n.object,
    }))
    .sort((a, b) => compareStrings(a.file, b.file));
}

/** The kustomization.yaml listing FILES. */
function kustomization(files: readonly string[], format: (value: unknown) => string): string {
  return format({
    apiVersion: 'kustomize.config.k8s.io/v1beta1',
    kind: 'Kustomization',
    resources: [...files],
  });
}

/** The files an earlier render listed in DIR's kustomization.yaml (only those are ever removed). */
function previousFiles(dir: string): string[] {
  const file = path.join(dir, KUSTOMIZATION);
  if (!existsSync(file)) return [];
  const k = parse(readFileSync(file, 'utf8')) as { resources?: unknown } | null;
  const list = Array.isArray(k?.resources) ? k.resources : [];
  return list.filter(
    (r): r is string => typeof r === 'string' && r === path.basename(r) && r.endsWith('.yaml'),
  );
}

/** Writes OBJECTS to DIR (made if missing); returns how many files were written and removed. */
export function writeManifestDir(
  dir: string,
  objects: readonly KubeObject[],
  format: (value: unknown) => string,
): { written: number; removed: number } {
  const files = manifestFiles(objects);
  try {
    mkdirSync(dir, { recursive: true });
    const keep = new Set(files.map((f) => f.file));
    let removed = 0;
    for (const old of previousFiles(dir)) {
      if (keep.has(old)) continue;
      rmSync(path.join(dir, old), { force: true });
      removed++;
    }
    for (const f of files) writeFileSync(path.join(dir, f.file), format(f.object));
    writeFileSync(path.join(dir, KUSTOMIZATION), kustomization([...keep], format));
    return { written: files.length, removed };
  } catch (err) {
    throw new UserError(`cannot write ${dir}: ${(err as Error).message}`);
  }
}

/** With --contexts, each context's render goes to DIR/<context>/ (the name made safe). */
export function inContextDir(dir: string | undefined, context: string): string | undefined {
  return dir === undefined ? undefined : path.join(dir, safe(context));
}
