/**
 * The documentation test's exceptions (README.md and docs/), each keyed by a command exactly as readme-blocks.ts reads it (a line, or
 * continued lines joined with one space) and each with its reason. A command in none of them runs and must exit 0.
 */

/** Commands no test can run as written. */
export const SKIP: Record<string, string> = {
  'kubectl krew index add crossplane-rbac https://github.com/kubectl-crossplane-rbac/krew-index.git':
    'needs krew and the network',
  'kubectl krew install crossplane-rbac/crossplane-rbac': 'needs krew and the network',
  'npm pack':
    'its prepack rebuilds dist/ under the e2e tests running it; packaging.test.ts packs (--ignore-scripts) and installs the tarball',
  'npm install -g ./kubectl-crossplane-rbac-0.1.0.tgz':
    'installs into the global prefix; packaging.test.ts installs the tarball into a prefix of its own',
  'npm ci': 'reinstalls node_modules, which the tests run from',
  'npm test   # type check, lint, every test (unit, integration, end to end through the real kubectl)':
    'runs this test',
  'npm run build': 'rewrites dist/ under the e2e tests running it; npm test builds before them',
  'kubectl crossplane-rbac sync --watch --yes':
    'runs until Ctrl-C; sync-watch.test.ts (e2e) runs it through the executable, adds a revision and stops it',
  'kubectl crossplane-rbac enable-xrd -i':
    'chooses from checkbox lists on a terminal; enable-xrd.test.ts drives them through tmux',
  'git add clusters/ && git commit -m "Crossplane RBAC"': "commits to the reader's GitOps repository",
  'kubectl crossplane-rbac explain --subject Group:crossplane:masters --for compositions --verb update -f examples/cluster -o dot | dot -Tsvg > crossplane-masters.svg':
    "needs Graphviz's dot; format-graph.test.ts has Graphviz (its WebAssembly build) read every DOT output",
  'kubectl-crossplane_rbac completion fish | source   # in fish':
    'fish syntax (the blocks run in bash); connection.test.ts loads the fish script in fish where fish is installed',
  'kubectl crossplane-rbac explain crossplane-edit --server https://10.0.0.1:6443 --token "$TOKEN" --certificate-authority ca.crt':
    "the reader's cluster, token and CA are placeholders; connection.test.ts runs these flags against the test API server",
};

/** Commands that ask before writing: run in a pseudo-terminal, answered `y` (the reader's answer). */
export const TERMINAL: Record<string, string> = {
  'kubectl crossplane-rbac sync': 'asks on a terminal (the README says so)',
  'kubectl crossplane-rbac sync --manage serviceaccounts --provider upbound-provider-aws-s3 --provider upbound-provider-aws-ec2':
    'asks on a terminal',
  'kubectl crossplane-rbac sync --crossplane-version v1 --provider-clusterrole provider-permissions':
    'asks on a terminal',
};

/** Commands that serve until Ctrl-C: started in the background, kept until the README is done. */
export const SERVE: Record<string, string> = {
  'npm run apiserver -- --seed examples/cluster --write-kubeconfig /tmp/xrbac.kubeconfig':
    'the test API server; the README runs the next block in another terminal',
};

/** Commands whose exit code is not 0, as the README says. */
export const EXIT: Record<string, { readonly code: number; readonly why: string }> = {
  'kubectl crossplane-rbac audit --as dana -n team-a': {
    code: 2,
    why: 'a partial audit (namespace-only rights) ends with an error after its report, as kubectl get after a forbidden list',
  },
  'kubectl crossplane-rbac bind --service-account flux-system/kustomize-controller --role-ref ClusterRole/crossplane-edit --role-ref Role/gitops-deployer@team-b':
    {
      code: 2,
      why: 'examples/cluster runs no Flux: bind names the missing flux-system namespace and service account, and writes nothing (the README says so below)',
    },
  'kubectl crossplane-rbac sync -f examples/cluster --only composed': {
    code: 2,
    why: 'the example composes RoleBindings, held without --allow-privileged: exit 2 after everything else',
  },
  'kubectl crossplane-rbac sync --only providers,composites,namespaces,base,composed --yes': {
    code: 2,
    why: 'the same held RoleBindings (the README says exit 2)',
  },
  'kubectl crossplane-rbac explain --subject ServiceAccount:crossplane-system/upbound-provider-aws-s3-e7585f0184b8 --for buckets.s3.aws.upbound.io --verb delete -f examples/cluster --after-sync':
    { code: 1, why: 'denied, as the output shows: 1, as kubectl auth can-i' },
  "kubectl crossplane-rbac sync --contexts 'prod-*' --output-dir clusters/": {
    code: 2,
    why: "the test's fleet has prod-dead, which cannot be reached (the drift example above shows it)",
  },
  'kubectl crossplane-rbac explain --subject Group:team-a-devs --all -f examples/cluster': {
    code: 2,
    why: "a flag of another mode (the matrix's --all without --matrix), refused (the transcript shows the error)",
  },
  'kubectl crossplane-rbac sync -f examples/cluster --provider provider-aws-s3': {
    code: 2,
    why: 'an unknown --provider (the transcript shows the error)',
  },
  'kubectl crossplane-rbac sync -f examples/cluster --provider upbound-provider-aws-ec': {
    code: 2,
    why: 'an ambiguous --provider (the transcript shows the error)',
  },
  'kubectl crossplane-rbac sync --dryrun': {
    code: 2,
    why: 'an unknown flag (the transcript shows the error)',
  },
  'kubectl auth can-i list buckets.s3.aws.upbound.io -A --as system:serviceaccount:crossplane-system:upbound-provider-aws-s3-e7585f0184b8':
    {
      code: 1,
      why: 'before sync the provider has no role: kubectl auth can-i says no, exit 1 (the guide says so)',
    },
  'kubectl crossplane-rbac synk': { code: 2, why: 'an unknown command (the transcript shows the error)' },
  'kubectl auth can-i create sqlinstances.aws.platform.upbound.io -n team-b --as alice --as-group team-a-devs':
    {
      code: 1,
      why: 'team-a-devs has no binding in team-b: kubectl auth can-i says no, exit 1',
    },
  'kubectl crossplane-rbac explain --subject Group:team-a-devs -n team-b --for sqlinstances.aws.platform.upbound.io --verb create':
    { code: 1, why: '"the same question, the same exit code" as the kubectl auth can-i before it' },
  "kubectl crossplane-rbac sync --check --contexts 'prod-*'": {
    code: 2,
    why: 'prod-dead cannot be reached: 2 when any context failed',
  },
  'kubectl crossplane-rbac who-can delete buckets.s3.aws.upbound.io -A --all-contexts -o json': {
    code: 2,
    why: 'prod-dead cannot be reached',
  },
};
