/** Helpers about stored objects: their API version, generation, CRD status, and how they are compared and shown. */
import { clone } from './patch.js';
import type { ResourceInfo } from './registry.js';
import { nowTimestamp } from './store.js';
import type { Obj } from './types.js';

const GENERATE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

export function randomSuffix(): string {
  let s = '';
  for (let i = 0; i < 5; i++)
    s += GENERATE_ALPHABET[Math.floor(Math.random() * GENERATE_ALPHABET.length)] ?? '';
  return s;
}

export function groupVersion(info: Pick<ResourceInfo, 'group' | 'version'>): string {
  return info.group === '' ? info.version : `${info.group}/${info.version}`;
}

export function apiVersionGroup(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** Resources whose metadata.generation follows spec changes (their strategies' PrepareForCreate set it to 1). */
const GENERATION_BUILTINS = new Set([
  'deployments',
  'statefulsets',
  'jobs',
  'cronjobs',
  'ingresses',
  'networkpolicies',
  'poddisruptionbudgets',
  'customresourcedefinitions',
]);

export function hasGeneration(info: ResourceInfo): boolean {
  return info.custom || GENERATION_BUILTINS.has(info.resource);
}

/** The CRD status a healthy apiextensions controller converges to. */
export function crdStatus(crd: Obj): Obj {
  const now = nowTimestamp();
  const versions = Array.isArray(crd.spec?.versions) ? (crd.spec.versions as Obj[]) : [];
  return {
    acceptedNames: clone(crd.spec?.names ?? {}),
    conditions: [
      {
        type: 'NamesAccepted',
        status: 'True',
        lastTransitionTime: now,
        reason: 'NoConflicts',
        message: 'no conflicts found',
      },
      {
        type: 'Established',
        status: 'True',
        lastTransitionTime: now,
        reason: 'InitialNamesAccepted',
        message: 'the initial names have been accepted',
      },
    ],
    storedVersions: versions.filter((v) => v.storage === true).map((v) => v.name as string),
  };
}

export function canonical(obj: Obj): string {
  const c = clone(obj);
  if (c.metadata) {
    delete c.metadata.resourceVersion;
    delete c.metadata.managedFields;
  }
  return JSON.stringify(sortKeys(c));
}

export function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (typeof v === 'object' && v !== null) {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys((v as Obj)[k])]),
    );
  }
  return v;
}

/** An object as the API returns it: the requested version's apiVersion (all versions share storage). */
export function present(info: ResourceInfo, obj: Obj): Obj {
  const out = clone(obj);
  out.apiVersion = groupVersion(info);
  out.kind = info.kind;
  return { apiVersion: out.apiVersion, kind: out.kind, ...out };
}
