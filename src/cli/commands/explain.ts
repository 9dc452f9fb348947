import type { CommandModule } from 'yargs';
import { UsageError } from '../../errors.js';
import type { AccessAttributes } from '../../authz/authorize.js';
import type { Deps, GlobalArgs } from '../context.js';
import { fromOption, readInput, type FromPaths } from '../read-input.js';
import { palette, useColor } from '../output/terminal.js';

const OUTPUTS = ['tree', 'table', 'wide', 'yaml', 'json', 'dot', 'mermaid'] as const;

interface ExplainArgs extends GlobalArgs {
  readonly role: string;
  readonly from: FromPaths | undefined;
  readonly for: string | undefined;
  readonly verb: string | undefined;
}

/** Parses `--for GROUP/RESOURCE[/SUBRESOURCE]` (`core/...` or a bare `RESOURCE` for the core group) and `--verb`. */
export function parseAccess(
  forFlag: string | undefined,
  verb: string | undefined,
): AccessAttributes | undefined {
  if (forFlag === undefined) {
    if (verb !== undefined)
      throw new UsageError('--verb needs --for GROUP/RESOURCE', {
        hint: 'e.g. --for apps/deployments --verb delete',
      });
    return undefined;
  }
  if (verb === undefined || verb === '') {
    throw new UsageError('--for needs --verb', { hint: 'e.g. --for apps/deployments --verb delete' });
  }
  const parts = forFlag.split('/');
  let group: string;
  let resource: string | undefined;
  let subresource: string | undefined;
  if (parts.length === 1) [resource] = parts;
  else [group = '', resource, subresource] = parts;
  group ??= '';
  if (group === 'core') group = '';
  if (parts.length > 3 || resource === undefined || resource === '' || subresource === '') {
    throw new UsageError(`invalid --for "${forFlag}"`, {
      hint: 'use GROUP/RESOURCE[/SUBRESOURCE], e.g. apps/deployments, core/pods/log, or a bare core RESOURCE',
    });
  }
  return { verb, apiGroup: group, resource, ...(subresource !== undefined ? { subresource } : {}) };
}

export function explainCommand(deps: Deps): CommandModule<GlobalArgs, ExplainArgs> {
  return {
    command: 'explain <role>',
    describe:
      'Show the effective rules of a ClusterRole as Kubernetes aggregates them, and where each came from',
    builder: (y) =>
      y
        .positional('role', { type: 'string', demandOption: true, describe: 'The ClusterRole to explain' })
        .option('from', fromOption)
        .option('for', { type: 'string', describe: 'Keep only rules granting GROUP/RESOURCE[/SUBRESOURCE]' })
        .option('verb', { type: 'string', describe: 'The verb for --for (get, list, delete, ...)' })
        .example(
          '$0 explain crossplane-edit',
          'The aggregation tree of crossplane-edit, live from the cluster',
        )
        .example(
          '$0 explain admin -o wide -f examples/cluster',
          'Every rule of admin with its source, from files',
        )
        .example(
          '$0 explain crossplane-edit --for s3.aws.upbound.io/buckets --verb delete',
          'Which rules let crossplane-edit delete buckets, and where they came from',
        )
        .example(
          '$0 explain crossplane -o json | jq .effectiveRules',
          'The exact rules the controller stores',
        ),
    handler: async (args) => {
      const output = args.output ?? 'tree';
      if (!(OUTPUTS as readonly string[]).includes(output)) {
        throw new UsageError(`unknown output format "${output}" for explain`, {
          hint: `use one of: ${OUTPUTS.join(', ')}`,
        });
      }
      const access = parseAccess(args.for, args.verb);
      const input = await readInput(args, deps, ['clusterRoles', 'clusterRoleBindings', 'roleBindings']);
      const [{ explainRole }, fmt, data] = await Promise.all([
        import('../../explain/explain-role.js'),
        import('../output/format-explain.js'),
        import('../output/format-data.js'),
      ]);
      const explanation = explainRole(
        args.role,
        input.snapshot,
        access !== undefined ? { for: access } : undefined,
      );
      const color = useColor(deps.io, deps.io.stdoutIsTTY, !args.color);
      const text = {
        tree: () => fmt.formatExplainTree(explanation, palette(color)),
        table: () => fmt.formatExplainTable(explanation, false),
        wide: () => fmt.formatExplainTable(explanation, true),
        yaml: () => data.formatYaml(explanation),
        json: () => data.formatJson(explanation),
        dot: () => fmt.formatExplainDot(explanation),
        mermaid: () => fmt.formatExplainMermaid(explanation),
      }[output as (typeof OUTPUTS)[number]]();
      deps.io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    },
  };
}
