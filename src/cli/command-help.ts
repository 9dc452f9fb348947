// What each command's --help teaches: a paragraph on what it does, and examples that run as written from a clone of
// the repository (each reads examples/cluster with -f; test/e2e/help-examples.test.ts runs every one). Laid out as
// kubectl lays out its help (a `# comment` line above each command, not wrapped), see formatHelp in help-layout.ts.

/** One example of a command's help. */
export interface HelpExample {
  /** What it shows, a `# ` comment line above it. */
  readonly what: string;
  /** The command line, as typed (starting with `kubectl crossplane-rbac`, or a shell construct around it). */
  readonly run: string;
}

/** The help of one command beyond its flags. */
export interface CommandHelp {
  /** One paragraph: what the command does, reads and writes. */
  readonly long: string;
  /** The usage line after the program name. */
  readonly usage: string;
  readonly examples: readonly HelpExample[];
}

/** The plugin as kubectl runs it. */
export const PROGRAM = 'kubectl crossplane-rbac';
const P = PROGRAM;
const F = '-f examples/cluster';

/** Every command's help, by command name. */
export const COMMAND_HELP: Readonly<Record<string, CommandHelp>> = {
  sync: {
    long: "Renders the RBAC that Crossplane's RBAC manager would make (the ClusterRoles and bindings of every ProviderRevision and CompositeResourceDefinition, the base roles, and the crossplane-ns-<ns>-edit/view roles of namespaces that enabled XRDs) and writes only what differs, after a plan and a confirmation (--yes skips it). It changes only objects it owns (--adopt takes over unowned ones), never writes a privileged rule without --allow-privileged, and prunes only with --prune. With -f it reads the cluster from files and writes nothing; --output-dir writes the objects as files for a GitOps engine instead.",
    usage: 'sync [flags]',
    examples: [
      { what: 'What sync would make for the example cluster, without a cluster', run: `${P} sync ${F}` },
      { what: 'The same as a unified diff', run: `${P} sync ${F} -o diff` },
      {
        what: 'Exit 1 when the cluster differs from what sync would make (for CI)',
        run: `${P} sync ${F} --check`,
      },
      {
        what: 'Write the objects for Argo CD, Flux or Config Sync instead of to a cluster',
        run: `${P} sync ${F} --output-dir gitops/`,
      },
      {
        what: 'Only the roles of one provider (a whole name, or a prefix only it has)',
        run: `${P} sync ${F} --provider upbound-provider-aws-s3`,
      },
    ],
  },
  'enable-xrd': {
    long: "Lets namespaces use XRDs: their claims (Crossplane v1, or v2 XRDs with claimNames) or their namespaced XRs. It annotates each namespace chosen with -n or -l, then syncs that namespace's crossplane-ns-<ns>-edit and crossplane-ns-<ns>-view ClusterRoles, which aggregate the XRDs' roles; bind those with a RoleBinding in the namespace. --disable takes an XRD away again. With -f it reads the cluster from files and writes nothing; -i picks XRDs and namespaces from lists.",
    usage: 'enable-xrd XRD... (-n NS[,NS...] | -l SELECTOR) [flags]',
    examples: [
      {
        what: 'Let team-b claim PostgreSQL instances: the plan, from files',
        run: `${P} enable-xrd xpostgresqlinstances.database.platform.acme.io -n team-b ${F}`,
      },
      {
        what: 'Print the annotated Namespaces and the roles it would write',
        run: `${P} enable-xrd apps.platform.acme.io -n team-a,team-b ${F} -o yaml`,
      },
      {
        what: 'A namespaced XR in every namespace of teams a and b',
        run: `${P} enable-xrd buckets.storage.acme.io -l 'acme.io/team in (a,b)' ${F}`,
      },
      {
        what: 'Take it away again (a namespace left with no XRD loses its roles)',
        run: `${P} enable-xrd apps.platform.acme.io -n team-a --disable ${F}`,
      },
    ],
  },
  explain: {
    long: 'Shows the effective rules of a ClusterRole as the aggregation controller computes them, and for each rule the role it came from (the aggregation tree; -o wide: every rule with its source). With --for and --verb it keeps the rules that grant one request. With --subject it explains a User, Group or ServiceAccount instead: the bindings that reach it, their roles and rules, and with --for/--verb whether the request is allowed (exit 0) or denied (exit 1), with why and the least privileged fix; --matrix lists every resource against every verb. It reads and never writes.',
    usage: 'explain ROLE | --subject KIND:NAME [flags]',
    examples: [
      { what: 'The aggregation tree of crossplane-edit', run: `${P} explain crossplane-edit ${F}` },
      {
        what: 'crossplane-edit once sync has made the provider and XRD roles it aggregates',
        run: `${P} explain crossplane-edit ${F} --after-sync`,
      },
      { what: 'Every rule of admin with its source', run: `${P} explain admin -o wide ${F}` },
      {
        what: 'May crossplane:masters delete S3 buckets? Exit 1 when not, with why and the fix',
        run: `${P} explain --subject Group:crossplane:masters --for buckets.s3.aws.upbound.io --verb delete ${F}`,
      },
      {
        what: "What Crossplane's account may do to every resource, with team-a's RoleBindings",
        run: `${P} explain --subject ServiceAccount:crossplane-system/crossplane --matrix -n team-a ${F}`,
      },
    ],
  },
  'who-can': {
    long: "Lists every subject (User, Group, ServiceAccount) the cluster's RBAC allows to make one request, each with its path: binding, role, aggregation chain and the rule that matches. RESOURCE takes kubectl's forms (plural, plural.group, a kind or short name, /subresource), resolved through discovery, or with -f through the CRDs and XRDs given. -n NS counts that namespace's RoleBindings, -A all of them; --after-sync answers for the cluster as sync would leave it. It reads and never writes.",
    usage: 'who-can VERB RESOURCE [NAME] [flags]',
    examples: [
      {
        what: 'Who may claim PostgreSQL instances in team-a',
        run: `${P} who-can create postgresqlinstances.database.platform.acme.io -n team-a ${F}`,
      },
      {
        what: 'Who may delete S3 buckets, every path with its rule',
        run: `${P} who-can delete buckets.s3.aws.upbound.io -o wide ${F}`,
      },
      {
        what: 'Who will be able to once sync has run, in every namespace',
        run: `${P} who-can delete buckets.s3.aws.upbound.io -A --after-sync ${F}`,
      },
      {
        what: 'The paths as a graph to open in a browser',
        run: `${P} who-can update compositions -o html ${F} > who-can.html`,
      },
      {
        what: 'A ClusterRole with what who-can reads, to bind to whoever runs it',
        run: `${P} who-can --print-required-role`,
      },
    ],
  },
  lookup: {
    long: 'Lists the subjects that ClusterRoleBindings and RoleBindings name and whose name matches PATTERN (a regular expression; none: every subject), one row per binding with its scope and role, and for an aggregated ClusterRole the roles it draws its rules from, as rbac-lookup does with aggregation resolved. --kind keeps users, groups or service accounts; -o wide shows each aggregation chain. It reads and never writes.',
    usage: 'lookup [PATTERN] [flags]',
    examples: [
      { what: 'Every subject whose name holds "crossplane"', run: `${P} lookup crossplane ${F}` },
      { what: 'Every service account any binding names', run: `${P} lookup --kind serviceaccount ${F}` },
      {
        what: 'The same with each aggregation chain and rule count',
        run: `${P} lookup crossplane -o wide ${F}`,
      },
    ],
  },
  composed: {
    long: "Lists what Crossplane's Compositions, CompositionRevisions and Operations compose, and whether Crossplane's service account may manage each kind: granted, missing (what sync --only composed would grant) or refused as privileged. What composite resources reference and what Crossplane's events say is evidence, reported only and never granted (anyone may write an Event or an XR). A composition that composes a kind the account lacks fails at run time with a forbidden error; this finds those before. It reads and never writes.",
    usage: 'composed [flags]',
    examples: [
      {
        what: 'What the example compositions compose, and what Crossplane lacks',
        run: `${P} composed ${F}`,
      },
      {
        what: 'Privileged kinds counted as missing, as sync --only composed --allow-privileged grants them',
        run: `${P} composed ${F} --allow-privileged`,
      },
      {
        what: 'The same as data, with every composition, XR and event that needs each kind',
        run: `${P} composed ${F} -o json`,
      },
    ],
  },
  audit: {
    long: "Finds who can become more than their roles say, and how: each path from a subject a binding names to cluster-admin, reading every Secret, running pods anywhere or node access, through Kubernetes' escalation steps (bind, escalate, impersonate, tokens, pods, webhooks) and through Crossplane's controllers (whoever writes a Composition, an Operation or a DeploymentRuntimeConfig, or installs a package, acts with the rights of Crossplane's accounts). Each finding names its steps, the binding, role and rule that allow each, and the least change that closes it. It reads and never writes; --fail-on makes it a CI gate.",
    usage: 'audit [flags]',
    examples: [
      {
        what: 'Every escalation path of the example cluster with a group bound to crossplane-edit',
        run: `${P} audit ${F} -f examples/audit`,
      },
      {
        what: 'One subject, every step with the binding and role that allow it, and the fix',
        run: `${P} audit ${F} -f examples/audit --subject Group:platform-engineers -o wide`,
      },
      {
        what: 'In CI: exit 1 when a critical finding remains',
        run: `${P} audit ${F} -f examples/audit --fail-on critical`,
      },
      {
        what: 'SARIF for code scanning, each finding at the file of the binding that opens it',
        run: `${P} audit ${F} -f examples/audit -o sarif`,
      },
    ],
  },
  bind: {
    long: "Binds a list of roles to the service account a GitOps reconciler runs as, so it can stop running as cluster-admin: a Config Sync RootSync's reconciler (--root-sync; its roles default to spec.override.roleRefs), or any service account (--service-account NS/NAME, for Flux or Argo CD). The roles come from --role-ref or --role-refs-file; a ClusterRole becomes a ClusterRoleBinding, a Role or a ClusterRole with a namespace a RoleBinding there. Privileged roles need --allow-privileged; a plan and a confirmation come first (--yes skips it). With -f it reads the cluster from files and writes nothing.",
    usage: 'bind (--root-sync NAME | --service-account NS/NAME) [--role-ref KIND/NAME[@NS]]... [flags]',
    examples: [
      {
        what: "The bindings for the example RootSync's roleRefs (its edit role grants impersonate, so it is privileged)",
        run: `${P} bind --root-sync root-sync ${F} --allow-privileged`,
      },
      {
        what: "Bind crossplane-edit and Config Sync's base role to the RootSync's reconciler",
        run: `${P} bind --root-sync root-sync --role-ref ClusterRole/crossplane-edit --base-role ${F}`,
      },
      {
        what: 'Bind a role to a Flux controller that is not installed yet',
        run: `${P} bind --service-account flux-system/kustomize-controller --role-ref ClusterRole/crossplane-edit --allow-missing ${F}`,
      },
      {
        what: 'The bindings as a diff',
        run: `${P} bind --root-sync root-sync --role-ref ClusterRole/crossplane-view -o diff ${F}`,
      },
    ],
  },
  version: {
    long: 'Prints the version of the plugin, and with -o json or -o yaml also the runtime it runs on (bun for the standalone executable, node for the npm package). It needs no cluster.',
    usage: 'version [flags]',
    examples: [
      { what: 'The version', run: `${P} version` },
      { what: 'The version and the runtime, as JSON', run: `${P} version -o json` },
      { what: 'The same as YAML', run: `${P} version -o yaml` },
    ],
  },
  completion: {
    long: 'Prints a script that completes commands, flags, roles, resources, namespaces and contexts in a shell: bash, zsh or fish, or `kubectl` for kubectl 1.26+, which completes "kubectl crossplane-rbac ..." through an executable named kubectl_complete-crossplane_rbac on PATH.',
    usage: 'completion [bash|zsh|fish|kubectl] [flags]',
    examples: [
      { what: 'Enable completion in the current bash session', run: `source <(${P} completion bash)` },
      {
        what: 'Enable it in every fish session',
        run: `mkdir -p ~/.config/fish/completions && ${P} completion fish > ~/.config/fish/completions/kubectl-crossplane_rbac.fish`,
      },
      {
        what: 'Complete "kubectl crossplane-rbac ..." through kubectl',
        run: `mkdir -p ~/bin && ${P} completion kubectl > ~/bin/kubectl_complete-crossplane_rbac && chmod +x ~/bin/kubectl_complete-crossplane_rbac`,
      },
    ],
  },
  options: {
    long: 'Prints the flags every command takes: how to reach the cluster (as kubectl takes them) and the plugin-wide ones.',
    usage: 'options',
    examples: [{ what: 'Print the flags every command takes', run: `${P} options` }],
  },
};
