/**
 * The checks beyond field types, for validate-input.ts: every name that ends up in a rule (an XRD's and a
 * ProviderRevision's groups and plurals, a Namespace's name) validated as Kubernetes validates it, so no input can make
 * a renderer grant on a name Kubernetes would refuse.
 */
import type { Problem } from '../kube/shape.js';
import { apiGroupProblem, dns1035LabelProblem, dnsLabelProblem } from '../kube/name-rules.js';
import { MRD_GROUP, MRD_KIND } from './names.js';
import { CRD_GROUP, CRD_KIND, isKubernetesGroup } from '../kube/api-names.js';

/** Why a custom resource may not be served in `group`, or undefined: a valid custom group, not Kubernetes' own. */
function customGroupProblem(group: string): string | undefined {
  return (
    apiGroupProblem(group) ??
    (isKubernetesGroup(group)
      ? "it is one of Kubernetes' own API groups, which no XRD or provider is granted through Crossplane's roles"
      : undefined)
  );
}

function xrdProblem(xrd: Record<string, unknown>): Problem | undefined {
  const spec = xrd.spec as { group: string; names: { plural?: string }; claimNames?: { plural?: string } };
  const group = customGroupProblem(spec.group);
  if (group !== undefined) {
    return {
      field: 'spec.group',
      problem: `spec.group ${JSON.stringify(spec.group)} is not a valid API group: ${group}`,
    };
  }
  const plurals: [string, string | undefined, boolean][] = [
    ['spec.names.plural', spec.names.plural, true],
    ['spec.claimNames.plural', spec.claimNames?.plural, spec.claimNames !== undefined],
  ];
  for (const [field, plural, required] of plurals) {
    if (!required) continue;
    if (plural === undefined) return { field, problem: `${field} is required` };
    const p = dns1035LabelProblem(plural);
    if (p !== undefined) {
      return { field, problem: `${field} ${JSON.stringify(plural)} is not a valid resource name: ${p}` };
    }
  }
  // Crossplane names the XR's CRD after the XRD, and the API server requires `<plural>.<group>` of a CRD.
  const name = (xrd.metadata as { name: string }).name;
  const want = `${spec.names.plural ?? ''}.${spec.group}`;
  if (name !== want) {
    return {
      field: 'metadata.name',
      problem: `metadata.name ${JSON.stringify(name)} must be spec.names.plural + "." + spec.group (${JSON.stringify(want)})`,
    };
  }
  return undefined;
}

function apiGroupOf(apiVersion: string): string | undefined {
  // As splitting at `/`: no `/` is the core group, one splits group from version, more is no API version.
  const slash = apiVersion.indexOf('/');
  // Stryker disable next-line StringLiteral: the core group and the text are both neither the CRD nor the MRD group
  if (slash < 0) return '';
  return apiVersion.indexOf('/', slash + 1) < 0 ? apiVersion.slice(0, slash) : undefined;
}

/** The CRD and MRD names a revision defines must each be `<plural>.<group>` as Kubernetes names a CRD. */
function providerRevisionProblem(rev: Record<string, unknown>): Problem | undefined {
  const refs = (
    rev.status as { objectRefs?: { apiVersion: string; kind: string; name: string }[] } | undefined
  )?.objectRefs;
  // Stryker disable next-line ArrayDeclaration: without refs the one index reads undefined, which the loop skips
  for (let i = 0; i < (refs ?? []).length; i++) {
    // Stryker disable next-line OptionalChaining: i < (refs ?? []).length only when refs is set
    const ref = refs?.[i];
    if (ref === undefined) continue;
    const group = apiGroupOf(ref.apiVersion);
    const defines =
      (group === CRD_GROUP && ref.kind === CRD_KIND) || (group === MRD_GROUP && ref.kind === MRD_KIND);
    const dot = ref.name.indexOf('.');
    // Crossplane skips a name without a dot: it defines nothing.
    if (!defines || dot < 0) continue;
    const field = `status.objectRefs[${i}].name`;
    const plural = ref.name.slice(0, dot);
    const resGroup = ref.name.slice(dot + 1);
    const pp = dns1035LabelProblem(plural);
    const gp = pp === undefined ? customGroupProblem(resGroup) : undefined;
    if (pp !== undefined || gp !== undefined) {
      const why =
        pp !== undefined
          ? `plural ${JSON.stringify(plural)}: ${pp}`
          : `group ${JSON.stringify(resGroup)}: ${gp ?? ''}`;
      return {
        field,
        problem: `${field} ${JSON.stringify(ref.name)} is not a valid ${ref.kind} name (<plural>.<group>): ${why}`,
      };
    }
  }
  return undefined;
}

function namespaceProblem(ns: Record<string, unknown>): Problem | undefined {
  const name = (ns.metadata as { name: string }).name;
  const p = dnsLabelProblem(name);
  return p === undefined
    ? undefined
    : {
        field: 'metadata.name',
        problem: `metadata.name ${JSON.stringify(name)} is not a valid namespace name: ${p}`,
      };
}

export const SEMANTIC: Readonly<Record<string, (o: Record<string, unknown>) => Problem | undefined>> = {
  CompositeResourceDefinition: xrdProblem,
  ProviderRevision: providerRevisionProblem,
  Namespace: namespaceProblem,
};
