import type { Cluster } from '../k8s/cluster.js';
import type { ConnectionFlags } from '../k8s/kubeconfig.js';
import type { Prompter } from './output/prompt.js';
import type { Io } from './output/terminal.js';

/** The real dependencies a command runs with; main.ts builds them, tests pass fakes. */
export interface Deps {
  readonly io: Io;
  readonly connect: (flags: ConnectionFlags) => Promise<Cluster>;
  readonly prompter: Prompter;
  readonly version: string;
}

/** The global flags every command takes (kubectl's own, see README "Commands"), parsed. */
export interface GlobalArgs {
  readonly kubeconfig: string | undefined;
  readonly context: string | undefined;
  readonly cluster: string | undefined;
  readonly user: string | undefined;
  readonly namespace: string | undefined;
  readonly as: string | undefined;
  readonly 'as-group': string[] | undefined;
  readonly 'request-timeout': string | undefined;
  readonly output: string | undefined;
  readonly color: boolean;
  readonly verbose: boolean;
}

export function connectionFlags(args: GlobalArgs): ConnectionFlags {
  return {
    kubeconfig: args.kubeconfig,
    context: args.context,
    cluster: args.cluster,
    user: args.user,
    namespace: args.namespace,
    as: args.as,
    asGroup: args['as-group'],
    requestTimeout: args['request-timeout'],
  };
}
