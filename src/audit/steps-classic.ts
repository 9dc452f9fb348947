/**
 * The classic steps out of one identity, Kubernetes' own escalation paths as rbac-police's and KubiScan's published
 * rules name them (catalogue.ts cites each): bind, escalate, webhook, run-as, token-request, secret-token,
 * impersonate.
 */
import { firstAllowed, POD_MAKERS, type Step, type StepMaker, type Target } from './steps.js';
import { identityText } from './rights.js';

const RBAC = 'rbac.authorization.k8s.io';
const CLUSTER_ROLES: Target = { group: RBAC, resource: 'clusterroles' };
const CLUSTER_ROLE_BINDINGS: Target = { group: RBAC, resource: 'clusterrolebindings' };
const SECRETS: Target = { group: '', resource: 'secrets' };
const TOKEN: Target = { group: '', resource: 'serviceaccounts', subresource: 'token' };
/** Ways into a running pod (rbac-police pods_exec.rego, pods_ephemeral_ctrs.rego: update or patch). */
const POD_ENTRIES: readonly { verbs: readonly string[]; target: Target }[] = [
  { verbs: ['create'], target: { group: '', resource: 'pods', subresource: 'exec' } },
  { verbs: ['create'], target: { group: '', resource: 'pods', subresource: 'attach' } },
  { verbs: ['patch', 'update'], target: { group: '', resource: 'pods', subresource: 'ephemeralcontainers' } },
];
const DEPLOYMENTS: Target = { group: 'apps', resource: 'deployments' };
const WEBHOOKS: readonly Target[] = [
  { group: 'admissionregistration.k8s.io', resource: 'mutatingwebhookconfigurations' },
  { group: 'admissionregistration.k8s.io', resource: 'validatingwebhookconfigurations' },
];

const bind: StepMaker = (who, { rights, clusterAdmin }) => {
  const b = firstAllowed(rights, who, ['bind'], [CLUSTER_ROLES], undefined, clusterAdmin.name);
  if (b === undefined || firstAllowed(rights, who, ['create'], [CLUSTER_ROLE_BINDINGS]) === undefined)
    return [];
  return [
    {
      mechanism: 'bind',
      ...b,
      target: clusterAdmin,
      why: `may bind ClusterRole ${clusterAdmin.name} and create ClusterRoleBindings, so it may bind ${clusterAdmin.name} to itself`,
    },
  ];
};

const escalate: StepMaker = (who, { rights, clusterAdmin }) => {
  for (const role of rights.clusterRolesBound(who)) {
    const e = firstAllowed(rights, who, ['escalate'], [CLUSTER_ROLES], undefined, role);
    if (e === undefined) continue;
    if (firstAllowed(rights, who, ['update', 'patch'], [CLUSTER_ROLES], undefined, role) === undefined)
      continue;
    return [
      {
        mechanism: 'escalate',
        ...e,
        target: clusterAdmin,
        why: `may escalate and update ClusterRole ${role}, which it holds in every namespace, so it may add any rule to it`,
      },
    ];
  }
  return [];
};

const impersonate: StepMaker = (who, ctx) => {
  const { rights } = ctx;
  if (!rights.mayUseVerb(who, 'impersonate')) return [];
  const out: Step[] = [];
  const anyUser = firstAllowed(rights, who, ['impersonate'], [{ group: '', resource: 'users' }]);
  for (const p of ctx.people) {
    if (p.kind === 'User') {
      const u = firstAllowed(
        rights,
        who,
        ['impersonate'],
        [{ group: '', resource: 'users' }],
        undefined,
        p.name,
      );
      if (u !== undefined)
        out.push({ mechanism: 'impersonate', ...u, target: p, why: `may impersonate ${identityText(p)}` });
    } else if (p.kind === 'Group' && anyUser !== undefined) {
      const g = firstAllowed(
        rights,
        who,
        ['impersonate'],
        [{ group: '', resource: 'groups' }],
        undefined,
        p.name,
      );
      if (g !== undefined) {
        out.push({
          mechanism: 'impersonate',
          ...g,
          target: p,
          why: `may impersonate any user in ${identityText(p)}`,
        });
      }
    }
  }
  for (const [ns, accounts] of ctx.serviceAccounts) {
    for (const sa of accounts) {
      const s = firstAllowed(
        rights,
        who,
        ['impersonate'],
        [{ group: '', resource: 'serviceaccounts' }],
        ns,
        sa.name,
      );
      if (s !== undefined)
        out.push({ mechanism: 'impersonate', ...s, target: sa, why: `may impersonate ${identityText(sa)}` });
    }
  }
  return out;
};

const tokenRequest: StepMaker = (who, ctx) => {
  const out: Step[] = [];
  for (const [ns, accounts] of ctx.serviceAccounts) {
    for (const sa of accounts) {
      const t = firstAllowed(ctx.rights, who, ['create'], [TOKEN], ns, sa.name);
      if (t === undefined) continue;
      out.push({
        mechanism: 'token-request',
        ...t,
        target: sa,
        why: `may request a token for ${identityText(sa)} (TokenRequest)`,
      });
    }
  }
  return out;
};

const secretToken: StepMaker = (who, ctx) => {
  const out: Step[] = [];
  for (const [ns, accounts] of ctx.serviceAccounts) {
    const c = firstAllowed(ctx.rights, who, ['create'], [SECRETS], ns);
    if (c === undefined || firstAllowed(ctx.rights, who, ['get'], [SECRETS], ns) === undefined) continue;
    for (const sa of accounts) {
      out.push({
        mechanism: 'secret-token',
        ...c,
        target: sa,
        why: `may create and read Secrets in ${ns}: a Secret of type kubernetes.io/service-account-token annotated kubernetes.io/service-account.name: ${sa.name} is filled with that account's token by Kubernetes' token controller`,
      });
    }
  }
  return out;
};

const runAs: StepMaker = (who, ctx) => {
  const out: Step[] = [];
  for (const [ns, accounts] of ctx.serviceAccounts) {
    const made = firstAllowed(ctx.rights, who, ['create'], POD_MAKERS, ns);
    if (made !== undefined) {
      for (const sa of accounts) {
        out.push({
          mechanism: 'run-as',
          ...made,
          target: sa,
          why: `may create ${made.trigger.resource} in ${ns}, whose pods may run as any service account there: ${identityText(sa)}`,
        });
      }
      continue;
    }
    const running = ctx.runningAs.get(ns);
    if (running === undefined) continue;
    // A Deployment runs here: changing its pod template's serviceAccountName (rbac-police assign_sa.rego).
    const changed = firstAllowed(ctx.rights, who, ['patch', 'update'], [DEPLOYMENTS], ns);
    if (changed !== undefined) {
      const deployment = [...running.values()][0] ?? '';
      for (const sa of accounts) {
        out.push({
          mechanism: 'run-as',
          ...changed,
          target: sa,
          why: `may ${changed.trigger.verb} Deployments in ${ns}: Deployment ${deployment}'s pod template may be set to run as any service account there: ${identityText(sa)}`,
        });
      }
      continue;
    }
    for (const sa of accounts) {
      const deployment = running.get(sa.name);
      if (deployment === undefined) continue;
      for (const { verbs, target } of POD_ENTRIES) {
        const entry = firstAllowed(ctx.rights, who, verbs, [target], ns);
        if (entry === undefined) continue;
        out.push({
          mechanism: 'run-as',
          ...entry,
          target: sa,
          why: `may ${entry.trigger.verb} ${entry.trigger.resource} in ${ns}, where Deployment ${deployment} runs as ${identityText(sa)}`,
        });
        break;
      }
    }
  }
  return out;
};

const webhook: StepMaker = (who, { rights, clusterAdmin }) => {
  const w = firstAllowed(rights, who, ['create', 'update', 'patch'], WEBHOOKS);
  if (w === undefined) return [];
  return [
    {
      mechanism: 'webhook',
      ...w,
      target: clusterAdmin,
      why: "may write admission webhook configurations: its webhook sees (and a mutating one changes) every request, a binding's subjects and a pod's service account included",
    },
  ];
};
/** The classic step makers, in the catalogue's order. */
export const CLASSIC_STEPS: readonly StepMaker[] = [
  bind,
  escalate,
  webhook,
  runAs,
  tokenRequest,
  secretToken,
  impersonate,
];
