// The summary line of a write run that did not finish counts its writes in English: the noun agrees with the total
// ("0 of 1 write", "0 of 2 writes"), the verb with what it counts ("1 of 4 writes was done", "3 were not started").
import { describe, expect, it } from 'vitest';
import { presentWrite } from '../../../src/cli/write-flow.js';
import type { Io } from '../../../src/cli/io.js';
import type { Deps } from '../../../src/cli/context.js';
import type { WriteOutcome } from '../../../src/app/write.js';
import type { ApplyReport } from '../../../src/app/apply-plan.js';
import type { OperationResult } from '../../../src/app/apply-operations.js';
import type { UserError } from '../../../src/errors.js';

const io: Io = {
  stdout: { write: () => true },
  stderr: { write: () => true },
  readStdin: () => Promise.resolve(''),
  stdoutIsTTY: false,
  stderrIsTTY: false,
  stdinIsTTY: false,
  env: {},
};
const deps: Deps = {
  io,
  connect: () => Promise.reject(new Error('no cluster')),
  prompter: { confirm: () => Promise.resolve(false), checkbox: () => Promise.resolve([]) },
  version: 'test',
};

function result(error?: string, extra: Partial<OperationResult> = {}): OperationResult {
  const object = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'r' } };
  return { operation: { action: 'create', object }, error, ...extra };
}

/** The message of the error a run with REPORT ends with. */
async function summary(report: Partial<ApplyReport> & Pick<ApplyReport, 'results'>): Promise<string> {
  const outcome: WriteOutcome = {
    plan: { entries: [], counts: { create: 0, update: 0, delete: 0, unchanged: 0, refused: 0 } },
    shown: [],
    leading: [],
    held: [],
    refused: [],
    hasChanges: true,
    source: 'the cluster',
    what: 'apply the Crossplane RBAC',
    fromFiles: false,
    status: 'applied',
    report: {
      failedKeys: new Set(),
      written: 0,
      notStarted: 0,
      interrupted: false,
      serverGone: undefined,
      ...report,
    },
  };
  const opts = { output: 'name', color: false, check: false, serverDryRun: false, headers: true } as const;
  const err = await presentWrite(deps, outcome, opts).then(
    () => undefined,
    (e: unknown) => e as UserError,
  );
  return err?.message ?? '(no error)';
}

const stopped = (n: number): OperationResult[] =>
  Array.from({ length: n }, () => result(undefined, { notAttempted: true }));
const done = (n: number): OperationResult[] => Array.from({ length: n }, () => result());

describe('an interrupted run counts its writes', () => {
  it.each([
    [0, 1, 'interrupted: 0 of 1 write was done, 1 was not started'],
    [1, 1, 'interrupted: 1 of 1 write was done, 0 were not started'],
    [0, 2, 'interrupted: 0 of 2 writes were done, 2 were not started'],
    [1, 4, 'interrupted: 1 of 4 writes was done, 3 were not started'],
    [2, 4, 'interrupted: 2 of 4 writes were done, 2 were not started'],
    [3, 4, 'interrupted: 3 of 4 writes were done, 1 was not started'],
  ])('%i of %i written', async (written, total, message) => {
    const results = [...done(written), ...stopped(total - written)];
    expect(await summary({ results, written, notStarted: total - written, interrupted: true })).toBe(message);
  });
});

describe('a run that lost its server counts its writes', () => {
  it.each([
    [0, 1, 'lost the API server; 0 of 1 write was done before'],
    [1, 3, 'lost the API server; 1 of 3 writes was done before'],
    [2, 3, 'lost the API server; 2 of 3 writes were done before'],
  ])('%i of %i written', async (written, total, message) => {
    const gone = result('lost the API server', { serverGone: true });
    const results = [...done(written), gone, ...stopped(total - written - 1)];
    expect(await summary({ results, written, serverGone: { ...gone, error: undefined } })).toBe(message);
  });
});

describe('a run whose writes failed counts them', () => {
  it.each([
    [1, 1, '1 of 1 write failed; nothing was written'],
    [2, 2, '2 of 2 writes failed; nothing was written'],
    [1, 4, '1 of 4 writes failed; everything else was written'],
    [3, 4, '3 of 4 writes failed; everything else was written'],
  ])('%i of %i failed', async (failed, total, message) => {
    const results = [...Array.from({ length: failed }, () => result('forbidden')), ...done(total - failed)];
    expect(await summary({ results, written: total - failed })).toBe(message);
  });
});
