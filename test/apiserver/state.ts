/** What the parts of the test API server share: the store, the served resources, and the controllers. */
import { AggregationController } from './aggregation.js';
import type { PolicySource } from './authz.js';
import type { ResourceInfo } from './registry.js';
import { Registry } from './registry.js';
import { Store } from './store.js';
import type { Obj } from './types.js';

const CLUSTER_ROLES = 'rbac.authorization.k8s.io/clusterroles';

export class ServerState {
  readonly store = new Store();
  readonly registry = new Registry();
  /** The last object each field manager applied (server-side apply), by store key, object and manager. */
  readonly lastApplied = new Map<string, Obj>();
  readonly aggregation: AggregationController;

  /** The RBAC objects as the authorizer reads them: always after any pending aggregation. */
  readonly policy: PolicySource = {
    list: (resource, namespace) => {
      this.aggregation.flush();
      return this.store.list(`rbac.authorization.k8s.io/${resource}`, namespace);
    },
    get: (resource, name, namespace) => {
      this.aggregation.flush();
      return this.store.get(`rbac.authorization.k8s.io/${resource}`, namespace ?? '', name);
    },
  };

  constructor(opts: { aggregation: boolean; aggregationDelayMs: number }) {
    this.aggregation = new AggregationController(
      {
        list: () => this.store.list(CLUSTER_ROLES),
        write: (role) => {
          this.store.put(CLUSTER_ROLES, role, 'MODIFIED');
        },
      },
      opts.aggregation,
      opts.aggregationDelayMs,
    );
  }

  /** Serves the kinds of the stored CustomResourceDefinitions. */
  refreshCrds(): void {
    this.registry.setCrds(this.store.list('apiextensions.k8s.io/customresourcedefinitions'));
  }

  /** What follows a stored change of this resource: new kinds served, aggregated roles recomputed. */
  afterWrite(info: Pick<ResourceInfo, 'group' | 'resource'>): void {
    if (info.resource === 'customresourcedefinitions') this.refreshCrds();
    if (info.resource === 'clusterroles' && info.group === 'rbac.authorization.k8s.io')
      this.aggregation.changed();
  }
}
