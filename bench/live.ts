/** The benchmark cases run against the test API server (in this process): sync, its floor and who-can. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSeedFiles } from '../test/apiserver/seed.js';
import { startApiServer } from '../test/apiserver/server.js';
import { fixed, median } from './figures.js';
import { bundleClient, ratio, root, runAsync, work } from './process.js';
import { listsFromLog } from './sync-lists.js';

// ---- goal 3 (and the sync figures): against the test API server with 2 ms of latency

export async function benchSync(want: (name: string, byDefault?: boolean) => boolean): Promise<void> {
  const seed = loadSeedFiles([join(root, 'examples', 'large')]);
  const server = await startApiServer({ seed, latencyMs: 2 });
  const kc = join(work, 'kubeconfig');
  server.writeKubeconfig(kc);
  try {
    server.counters.reset();
    const cold = await runAsync('kubectl', [
      'crossplane-rbac',
      'sync',
      '--yes',
      '--kubeconfig',
      kc,
      '-o',
      'name',
    ]);
    const objects = cold.out.trim().split('\n').length;
    const coldLists = server.counters.total('list');
    const coldWrites = server.counters.writes();
    console.log(
      `sync cold (large example, 2 ms latency): ${fixed(cold.ms)} ms, ${objects} objects, ${coldLists} LISTs + ${coldWrites} writes (target: LISTs + at most one write per object); requests by verb: ${JSON.stringify(verbTotals(server.counters.snapshot()))}`,
    );

    // Unchanged sync against kubectl get of the objects it compares, paired, on the same server.
    const runs = 3;
    const ours: number[] = [];
    const theirs: number[] = [];
    let lists = 0;
    let others = 0;
    let writes = 0;
    for (let i = 0; i < runs; i++) {
      server.counters.reset();
      ours.push((await runAsync('kubectl', ['crossplane-rbac', 'sync', '--yes', '--kubeconfig', kc])).ms);
      lists = server.counters.total('list');
      writes = server.counters.writes();
      others = server.counters.total() - lists;
      theirs.push(
        (
          await runAsync('kubectl', [
            'get',
            'clusterroles,clusterrolebindings,rolebindings',
            '-o',
            'json',
            '--kubeconfig',
            kc,
          ])
        ).ms,
      );
    }
    console.log(
      `sync no-change (large example, 2 ms latency): ${fixed(median(ours))} ms, ${lists} LISTs, ${writes} writes, ${others} other requests, vs kubectl get clusterroles,clusterrolebindings,rolebindings -o json ${fixed(median(theirs))} ms (medians of ${runs} paired runs): ratio ${ratio(median(ours), median(theirs))} (target <= 1.50x; LISTs only, 0 writes)`,
    );

    if (!want('apply', false)) {
      console.log(
        'sync cold vs kubectl apply -f of the same objects: skipped (npm run bench -- apply: kubectl apply against the test API server takes about 20 minutes here)',
      );
      return;
    }
    // kubectl apply -f of sync's own output against a fresh server with the same seed.
    const yaml = (
      await runAsync('kubectl', [
        'crossplane-rbac',
        'sync',
        '--kubeconfig',
        kc,
        '-f',
        join(root, 'examples', 'large'),
        '-o',
        'yaml',
      ])
    ).out;
    const file = join(work, 'rendered.yaml');
    writeFileSync(file, yaml);
    const fresh = await startApiServer({ seed, latencyMs: 2 });
    const kc2 = join(work, 'kubeconfig2');
    fresh.writeKubeconfig(kc2);
    try {
      const fresh3 = await startApiServer({ seed, latencyMs: 2 });
      const kc3 = join(work, 'kubeconfig3');
      fresh3.writeKubeconfig(kc3);
      const oursCold = (
        await runAsync('kubectl', ['crossplane-rbac', 'sync', '--yes', '--kubeconfig', kc3, '-o', 'name'])
      ).ms;
      await fresh3.stop();
      const apply = (await runAsync('kubectl', ['apply', '-f', file, '--kubeconfig', kc2])).ms;
      console.log(
        `sync cold vs kubectl apply -f of the same objects: ${fixed(oursCold)} ms vs ${fixed(apply)} ms: sync is ${(apply / oursCold).toFixed(1)}x faster (target >= 5x)`,
      );
    } finally {
      await fresh.stop();
    }
  } finally {
    await server.stop();
  }
}

/**
 * The floor of a cold sync, a whole process as sync is one (bench/floor-client.ts, bundled here and run by plain
 * node): it starts, sends the LISTs sync sends (read from sync's own -v=8 request log: paths and Accept headers) and
 * POSTs the objects sync creates on examples/large, in sync's order, 16 in flight. `sync --yes` through kubectl does
 * the same work on another fresh server with the same seed and latency, its render, plan and permission pre-flight
 * included. Both are timed from spawn to exit; medians of RUNS paired runs, the order alternating.
 */
export async function benchSyncFloor(): Promise<void> {
  const seed = loadSeedFiles([join(root, 'examples', 'large')]);
  const fresh = async (name: string) => {
    const server = await startApiServer({ seed, latencyMs: 2 });
    const kc = join(work, `kubeconfig-${name}`);
    server.writeKubeconfig(kc);
    return { server, kc };
  };
  const planFile = join(work, 'floor-plan.txt');
  const client = await bundleClient('floor-client');
  const plan = await fresh('floor-plan');
  let count = 0;
  let lists = 0;
  try {
    const log = join(work, 'floor-plan.log');
    const out = await runAsync('bash', [
      '-c',
      `kubectl crossplane-rbac sync --dry-run=client -o json -v=8 --kubeconfig '${plan.kc}' 2> '${log}'`,
    ]);
    const items = (
      JSON.parse(out.out) as {
        items: { apiVersion: string; kind: string; metadata: { name: string; namespace?: string } }[];
      }
    ).items;
    const lines = listsFromLog(readFileSync(log, 'utf8'));
    lists = lines.length;
    if (lists === 0) throw new Error(`no LIST in sync's request log ${log}`);
    for (const o of items) {
      const ns = o.metadata.namespace !== undefined ? `/namespaces/${o.metadata.namespace}` : '';
      lines.push(`C /apis/${o.apiVersion}${ns}/${PLURALS[o.kind] ?? ''}\t${JSON.stringify(o)}`);
    }
    writeFileSync(planFile, `${lines.join('\n')}\n`);
    count = items.length;
  } finally {
    await plan.server.stop();
  }
  const runs = 5;
  const floor: number[] = [];
  const ours: number[] = [];
  // Seen by the server (it runs in this process): from the first write received to the last, for both clients,
  // and how long after its start sync's first write arrived.
  const windowMs = (w: { first: bigint; last: bigint } | undefined): number =>
    w === undefined ? Number.NaN : Number(w.last - w.first) / 1e6;
  const floorWrites: number[] = [];
  const ourWrites: number[] = [];
  const ourFirstWrite: number[] = [];
  const ourLastRead: number[] = [];
  let counts: Record<string, number> = {};
  const runFloor = async (i: number): Promise<void> => {
    const a = await fresh(`floor-${String(i)}`);
    try {
      a.server.counters.reset();
      floor.push((await runAsync(process.execPath, [client, a.server.httpsUrl(), planFile, '16'])).ms);
      floorWrites.push(windowMs(a.server.counters.window('write')));
    } finally {
      await a.server.stop();
    }
  };
  const runSync = async (i: number): Promise<void> => {
    const b = await fresh(`floor-sync-${String(i)}`);
    try {
      b.server.counters.reset();
      const start = process.hrtime.bigint();
      ours.push(
        (await runAsync('kubectl', ['crossplane-rbac', 'sync', '--yes', '--kubeconfig', b.kc, '-o', 'name']))
          .ms,
      );
      const w = b.server.counters.window('write');
      const r = b.server.counters.window('read');
      ourWrites.push(windowMs(w));
      ourFirstWrite.push(w === undefined ? Number.NaN : Number(w.first - start) / 1e6);
      ourLastRead.push(r === undefined ? Number.NaN : Number(r.last - start) / 1e6);
      counts = verbTotals(b.server.counters.snapshot());
    } finally {
      await b.server.stop();
    }
  };
  for (let i = 0; i < runs; i++) {
    if (i % 2 === 0) {
      await runFloor(i);
      await runSync(i);
    } else {
      await runSync(i);
      await runFloor(i);
    }
  }
  console.log(
    `sync cold vs its floor, both whole processes (large example, 2 ms latency, 16 in flight): sync --yes through kubectl ${fixed(median(ours))} ms vs a bare client's ${String(lists)} LISTs and ${String(count)} creates ${fixed(median(floor))} ms (medians of ${String(runs)} paired runs, fresh servers): ratio ${ratio(median(ours), median(floor))} (target <= 1.20x); sync's requests by verb: ${JSON.stringify(counts)}`,
  );
  console.log(
    `  where sync's time goes (seen by the server; informational): its last read arrives ${fixed(median(ourLastRead))} ms after it is started through kubectl, its first write ${fixed(median(ourFirstWrite))} ms after (render, plan, pre-flight); first to last write received: sync ${fixed(median(ourWrites))} ms, bare client ${fixed(median(floorWrites))} ms: ratio ${ratio(median(ourWrites), median(floorWrites))}`,
  );
}

/** The collection each kind sync creates is POSTed to. */
const PLURALS: Readonly<Record<string, string>> = {
  ClusterRole: 'clusterroles',
  ClusterRoleBinding: 'clusterrolebindings',
  RoleBinding: 'rolebindings',
  Role: 'roles',
};

function verbTotals(snapshot: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(snapshot)) {
    const verb = k.split(' ')[0] ?? k;
    out[verb] = (out[verb] ?? 0) + v;
  }
  return out;
}

// ---- who-can against kubectl auth can-i per subject

/**
 * who-can over the large example after sync (about 3,000 ClusterRoles, 600 namespaces), each team namespace with a
 * RoleBinding of its crossplane-ns-<ns>-edit role to the team's group, its lead and its CI service account, against
 * the same question put to the API server by kubectl: `kubectl auth can-i VERB RESOURCE -n NS --as ...` run once per
 * subject who-can lists, one after another (what answering "who can" with kubectl alone costs, knowing the subjects).
 */
export async function benchWhoCan(): Promise<void> {
  const seed = loadSeedFiles([join(root, 'examples', 'large')]);
  // BENCH_LEGACY_DISCOVERY=1: a server without aggregated discovery (before Kubernetes 1.26), where every kubectl
  // run reads one discovery document per group version.
  const server = await startApiServer({
    seed,
    latencyMs: 2,
    aggregatedDiscovery: process.env.BENCH_LEGACY_DISCOVERY !== '1',
  });
  const kc = join(work, 'kubeconfig-who-can');
  server.writeKubeconfig(kc);
  const rbac = 'rbac.authorization.k8s.io';
  const ns = 'team-000';
  // The claim of xaccounts.platform.acme.io, which team-000 enables; its CRD lets kubectl resolve the resource.
  const resource = 'accounts.platform.acme.io';
  try {
    await runAsync('kubectl', ['crossplane-rbac', 'sync', '--yes', '--kubeconfig', kc, '-o', 'name']);
    const teams = (server.list('namespaces') as { metadata: { name: string } }[])
      .map((n) => n.metadata.name)
      .filter((n) => n.startsWith('team-'));
    server.seed([
      {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: resource },
        spec: {
          group: 'platform.acme.io',
          scope: 'Namespaced',
          names: { plural: 'accounts', singular: 'account', kind: 'Account', listKind: 'AccountList' },
          versions: [
            {
              name: 'v1alpha1',
              served: true,
              storage: true,
              schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
            },
          ],
        },
      },
      ...teams.map((team) => ({
        apiVersion: `${rbac}/v1`,
        kind: 'RoleBinding',
        metadata: { name: 'team-edit', namespace: team },
        roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: `crossplane-ns-${team}-edit` },
        subjects: [
          { apiGroup: rbac, kind: 'Group', name: `${team}-devs` },
          { apiGroup: rbac, kind: 'User', name: `${team}-lead` },
          { kind: 'ServiceAccount', name: 'ci', namespace: team },
        ],
      })),
    ]);
    const query = ['create', resource, '-n', ns];
    const asFlags = (s: { kind: string; name: string; namespace?: string }): string[] =>
      s.kind === 'User'
        ? ['--as', s.name]
        : s.kind === 'Group'
          ? ['--as', 'bench-probe', '--as-group', s.name]
          : ['--as', `system:serviceaccount:${s.namespace ?? ''}:${s.name}`];
    // The floor: a bare process sending the same reads, bytes only (bench/who-can-floor-client.ts).
    const floorClient = await bundleClient('who-can-floor-client');
    const runs = 3;
    const ours: number[] = [];
    const theirs: number[] = [];
    const floor: number[] = [];
    let floorRead = '';
    let subjects: { kind: string; name: string; namespace?: string }[] = [];
    for (let i = 0; i < runs; i++) {
      const f = await runAsync(process.execPath, [floorClient, server.httpsUrl(), ns, '16']);
      floor.push(f.ms);
      floorRead = f.out.trim();
      const w = await runAsync('kubectl', [
        'crossplane-rbac',
        'who-can',
        ...query,
        '-o',
        'json',
        '--kubeconfig',
        kc,
      ]);
      ours.push(w.ms);
      subjects = (JSON.parse(w.out) as { subjects: typeof subjects }).subjects;
      const t = process.hrtime.bigint();
      for (const s of subjects) {
        // Exit 1 ("no") fails the bench: every subject who-can lists must be allowed.
        await runAsync('kubectl', ['auth', 'can-i', ...query, ...asFlags(s), '--kubeconfig', kc]);
      }
      theirs.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    const clusterRoles = server.list('clusterroles').length;
    const a = median(ours) / 1000;
    const b = median(theirs) / 1000;
    const c = median(floor) / 1000;
    const [roles = '?', bytes = '0'] = floorRead.split(' ');
    console.log(
      `who-can ${query.join(' ')} (large example after sync: ${clusterRoles} ClusterRoles, ${teams.length} team RoleBindings, 2 ms latency): ${a.toFixed(2)} s; kubectl auth can-i per subject (${subjects.length} subjects): ${b.toFixed(2)} s; ratio ${(a / b).toFixed(2)}x (target <= 0.60x: who-can reads the bindings, then only the ClusterRoles they reach, and answers from their stored rules as the authorizer; can-i asks the server once per subject already known) (medians of ${runs} paired runs)`,
    );
    console.log(
      `  floor: a bare Node process sending the same reads (discovery, the bindings, a GET of each of the ${roles} bound ClusterRoles, ${fixed(Number(bytes) / 1e6, 1)} MB, 16 in flight), bodies read as bytes: ${c.toFixed(2)} s, ${(c / b).toFixed(2)}x of can-i per subject; who-can is ${(a / c).toFixed(2)}x the floor (informational: no target)`,
    );
  } finally {
    await server.stop();
  }
}
