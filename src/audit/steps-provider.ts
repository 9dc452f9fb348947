/**
 * The provider-identity step: a managed resource of an in-cluster provider (provider-kubernetes, provider-helm) is
 * applied to this cluster with the provider's own account when the ProviderConfig it names uses InjectedIdentity
 * (in-cluster.ts finds the providers and reads their ProviderConfigs).
 */
import {
  boundNamespaces,
  firstAllowed,
  type ConfigKind,
  type InClusterConfig,
  type InClusterProvider,
  type Step,
  type StepMaker,
  type Target,
  type Trigger,
} from './steps.js';
import { identityText, type Allowed, type Identity, type Rights } from './rights.js';

/**
 * The groups of Crossplane v2's namespaced managed resources: a provider serves them under `.m.` in its group
 * (provider-kubernetes' objects.kubernetes.m.crossplane.io, provider-helm's releases.helm.m.crossplane.io).
 */
const NAMESPACED_MR_GROUP = /\.m\./;

export const providerIdentity: StepMaker = (who, ctx) => {
  const out: Step[] = [];
  for (const p of ctx.inClusterProviders) {
    // Per kind, every namespace first; then, of a namespaced (`.m.`) kind, each namespace where the identity holds
    // RoleBindings (a namespaced ProviderConfig serves its own namespace only). Creating one first; else changing one
    // that exists: the provider applies a managed resource's new manifest (or chart) on every change, with the
    // ProviderConfig it then names (provider-kubernetes internal/controller/object/object.go, Update). A certain step
    // is taken over a "may".
    let found: { step: Step; certain: boolean } | undefined;
    for (const kind of p.kinds) {
      const spaces = NAMESPACED_MR_GROUP.test(kind.group)
        ? [undefined, ...boundNamespaces(ctx.rights, who)]
        : [undefined];
      for (const ns of spaces) {
        const made =
          firstAllowed(ctx.rights, who, ['create'], [kind], ns) ??
          firstAllowed(ctx.rights, who, ['update', 'patch'], [kind], ns);
        if (made === undefined) continue;
        const sure = injectedText(p, kind, ctx.rights, who, ns);
        if (sure !== undefined && (found === undefined || (sure.certain && !found.certain))) {
          found = { step: identityStep(p, made, sure.text), certain: sure.certain };
        }
        // Every namespace: none needs asking one by one.
        if (ns === undefined || found?.certain === true) break;
      }
      if (found?.certain === true) break;
    }
    if (found !== undefined) out.push(found.step);
  }
  return out;
};

function identityStep(
  p: InClusterProvider,
  made: { trigger: Trigger; allowed: Allowed },
  sure: string,
): Step {
  const { verb, resource, namespace } = made.trigger;
  const where = namespace !== undefined ? ` in ${namespace}` : '';
  const what =
    verb === 'create'
      ? `may create ${resource}${where}`
      : `may ${verb} ${resource}${where} (an existing one's manifest and ProviderConfig are its to change)`;
  return {
    mechanism: 'provider-identity',
    ...made,
    target: p.account,
    why: `${what}, which the provider applies to this cluster as its own account, ${identityText(p.account)} (${sure})`,
  };
}

/** `KIND [NAMESPACE/]NAME (GROUP)`: one ProviderConfig read. */
function configText(c: InClusterConfig): string {
  return `${c.kind} ${c.namespace !== undefined ? `${c.namespace}/` : ''}${c.name} (${c.group})`;
}

/**
 * The ProviderConfig kinds a managed resource of KIND may name, and whether a config read is one of them for a
 * resource in NAMESPACE (undefined: any): a cluster-scoped managed resource names a ProviderConfig of its own group;
 * a namespaced (`.m.`) one a ClusterProviderConfig, or a ProviderConfig of its own namespace (provider-kubernetes
 * internal/controller/namespaced/object/object.go@0be8ca79d8b89cb665a02e1f5d7650c9bb005840, resolveProviderConfig).
 */
function configsFor(
  p: InClusterProvider,
  kind: Target,
  namespace: string | undefined,
): { kinds: ConfigKind[]; applies: (c: InClusterConfig) => boolean } {
  const kinds = p.configKinds.filter((k) => k.group === kind.group);
  const applies = (c: InClusterConfig): boolean => {
    const k = kinds.find((x) => x.kind === c.kind && x.group === c.group);
    return k !== undefined && (!k.namespaced || namespace === undefined || c.namespace === namespace);
  };
  return { kinds, applies };
}

/**
 * Whether a ProviderConfig of KINDS a managed resource in NAMESPACE (undefined: any) may name could not be read: a
 * kind unread, but a namespaced one read in NAMESPACE (listed there when forbidden cluster-wide) is known there.
 */
function unreadFor(
  p: InClusterProvider,
  kinds: readonly ConfigKind[],
  namespace: string | undefined,
): boolean {
  return p.unread.some((u) => {
    const k = kinds.find((x) => `${x.resource}.${x.group}` === u.crd);
    if (k === undefined) return false;
    return !(k.namespaced && namespace !== undefined && (u.readIn ?? []).includes(namespace));
  });
}

/**
 * The first of VERBS on one of KINDS the identity may make, for a managed resource in NAMESPACE (undefined: any): a
 * cluster-scoped kind without a namespace (a RoleBinding grants nothing on one: kubernetes plugin/pkg/auth/authorizer/
 * rbac/rbac.go, only ClusterRoleBindings apply to a request without a namespace); a namespaced one in NAMESPACE, or,
 * for a resource it may make anywhere, in every namespace or one where it holds RoleBindings.
 */
function configWrite(
  rights: Rights,
  who: Identity,
  verbs: readonly string[],
  kinds: readonly ConfigKind[],
  namespace: string | undefined,
): ReturnType<typeof firstAllowed> {
  for (const k of kinds) {
    const spaces = !k.namespaced
      ? [undefined]
      : namespace !== undefined
        ? [namespace]
        : [undefined, ...boundNamespaces(rights, who)];
    for (const ns of spaces) {
      const found = firstAllowed(rights, who, verbs, [k], ns);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/**
 * Why the provider acts as its own account for a managed resource of KIND in NAMESPACE, and whether that is certain:
 * a ProviderConfig it may name uses InjectedIdentity (certain, naming it); none exists (certain when WHO may create
 * one, else whoever may create one decides); some could not be read ("may"); every one uses another source (certain
 * when WHO may create one or change one's source, else no step: undefined). A managed resource names the
 * ProviderConfig it is applied with, so one of WHO's own decides. A provider whose revision's status and package
 * disagree "may" be one, with the reason.
 */
function injectedText(
  p: InClusterProvider,
  kind: Target,
  rights: Rights,
  who: Identity,
  namespace: string | undefined,
): { text: string; certain: boolean } | undefined {
  const noted = (text: string): string => (p.note !== undefined ? `${text}; ${p.note}` : text);
  const sure = (text: string): { text: string; certain: boolean } =>
    p.doubt !== undefined
      ? { text: noted(`may: ${p.doubt}; ${text.replace(/^may: /, '')}`), certain: false }
      : { text: noted(text), certain: !text.startsWith('may: ') };
  const { kinds, applies } = configsFor(p, kind, namespace);
  const configs = (p.configs ?? []).filter(applies);
  const injected = configs.find((c) => c.injected);
  if (injected !== undefined) return sure(`${configText(injected)} uses InjectedIdentity`);
  if (p.configs === undefined || unreadFor(p, kinds, namespace)) {
    return sure(
      'may: its ProviderConfigs could not all be read; one with credentials source InjectedIdentity makes it so',
    );
  }
  const writeText = (w: NonNullable<ReturnType<typeof firstAllowed>>): string => {
    const { verb, resource, namespace: ns } = w.trigger;
    const where = ns !== undefined ? ` in ${ns}` : '';
    return `${verb} ${resource}${where} ${verb === 'create' ? 'with' : 'to'} credentials source InjectedIdentity`;
  };
  if (configs.length > 0) {
    const write = configWrite(rights, who, ['create', 'update', 'patch'], kinds, namespace);
    if (write === undefined) return undefined;
    return sure(`every ProviderConfig uses another credentials source, but it may ${writeText(write)}`);
  }
  const own = configWrite(rights, who, ['create'], kinds, namespace);
  if (own !== undefined) {
    return sure(`no ProviderConfig exists, and it may ${writeText(own)}`);
  }
  return sure(
    'may: no ProviderConfig exists, so nothing is applied until whoever may create ProviderConfigs makes one; with credentials source InjectedIdentity it acts as this account',
  );
}
