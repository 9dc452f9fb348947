import { describe, expect, it } from 'vitest';
import {
  composedByComposition,
  isCrossplaneCompositeEvent,
  isGrantingEvidence,
  neededByOperation,
  type Evidence,
} from '../../../src/composed/sources.js';
import type { KubeObject } from '../../../src/kube/types.js';

// Crossplane records composite resources' events through the XRD controller's recorder, named "defined/" +
// strings.ToLower(CompositeResourceDefinitionGroupKind), and claims' through "offered/" + the same
// (crossplane/crossplane internal/controller/apiextensions/definition/reconciler.go and
// internal/controller/apiextensions/offered/reconciler.go, Setup, @2d040d2daf4e001799c4154a4a09b9e1f40d7fde; the
// group kind is apis/apiextensions/v1/register.go's CompositeResourceDefinitionGroupKind). Written out here, not
// taken from src/, so a wrong constant there fails these cases.
const XR_SOURCE = 'defined/compositeresourcedefinition.apiextensions.crossplane.io';
const CLAIM_SOURCE = 'offered/compositeresourcedefinition.apiextensions.crossplane.io';

describe('isGrantingEvidence: who may steer a grant', () => {
  const cases: Record<string, { evidence: Evidence; want: boolean; reason: string }> = {
    Composition: {
      evidence: { source: 'Composition', name: 'app', step: 'pt', resource: 'deploy' },
      want: true,
      reason: 'whoever may write a Composition already has Crossplane compose what it names',
    },
    CompositionRevision: {
      evidence: { source: 'CompositionRevision', name: 'app-1a2b3c', resource: 'deploy' },
      want: true,
      reason:
        'revisions are what Crossplane actually composes from; Crossplane or a Composition author writes them',
    },
    Operation: {
      evidence: { source: 'Operation', name: 'backup', step: 'run', requirement: 'db' },
      want: true,
      reason: 'an Operation runs its functions with Crossplane’s account',
    },
    CronOperation: {
      evidence: { source: 'CronOperation', name: 'nightly', step: 'run', requirement: 'db' },
      want: true,
      reason: 'a CronOperation creates Operations',
    },
    WatchOperation: {
      evidence: { source: 'WatchOperation', name: 'restart' },
      want: true,
      reason: 'Crossplane watches what a WatchOperation names',
    },
    CompositeResourceRefs: {
      evidence: { source: 'Composite', kind: 'App', name: 'web', namespace: 'team-a', composed: 'x' },
      want: false,
      reason: 'whoever may create one XR kind writes its resourceRefs (and pausing it keeps Crossplane away)',
    },
    DenialInAnEvent: {
      evidence: { source: 'Denial', via: 'Event', kind: 'App', name: 'web', verb: 'patch' },
      want: false,
      reason: 'whoever may create Events writes any message, any source component',
    },
    DenialInACondition: {
      evidence: { source: 'Denial', via: 'Condition', kind: 'App', name: 'web', verb: 'patch' },
      want: false,
      reason: 'an XR’s status is written by whoever may update it, not only Crossplane',
    },
  };
  it.each(Object.entries(cases))('%s', (_name, tc) => {
    expect(isGrantingEvidence(tc.evidence), tc.reason).toBe(tc.want);
  });
});

describe('isCrossplaneCompositeEvent: which Events count as evidence', () => {
  const composites = [
    { group: 'platform.acme.io', kind: 'App' },
    { group: 'platform.acme.io', kind: 'AppClaim' },
  ];
  const app = { apiVersion: 'platform.acme.io/v1alpha1', kind: 'App', name: 'web', namespace: 'team-a' };
  const event = (fields: Record<string, unknown>): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: 'e', namespace: 'team-a' },
    type: 'Warning',
    ...fields,
  });
  const cases: Record<string, { event: KubeObject; want: boolean; reason: string }> = {
    CompositeControllerEvent: {
      event: event({ involvedObject: app, source: { component: XR_SOURCE }, reportingComponent: XR_SOURCE }),
      want: true,
      reason: 'about an XR, from the composite controllers’ recorder (core/v1 fields)',
    },
    ClaimControllerEvent: {
      event: event({
        involvedObject: { ...app, kind: 'AppClaim' },
        source: { component: CLAIM_SOURCE },
      }),
      want: true,
      reason: 'about a claim, from the claim controllers’ recorder',
    },
    EventsV1Fields: {
      event: {
        apiVersion: 'events.k8s.io/v1',
        kind: 'Event',
        metadata: { name: 'e', namespace: 'team-a' },
        regarding: app,
        reportingController: XR_SOURCE,
        deprecatedSource: { component: XR_SOURCE },
      },
      want: true,
      reason: 'events.k8s.io/v1 names the object `regarding` and the component `reportingController`',
    },
    AnotherComponent: {
      event: event({ involvedObject: app, source: { component: 'gitops-deployer' } }),
      want: false,
      reason: 'not what Crossplane records',
    },
    NoComponent: {
      event: event({ involvedObject: app }),
      want: false,
      reason: 'Crossplane’s recorder always names its component',
    },
    ComponentsDisagree: {
      event: event({
        involvedObject: app,
        source: { component: XR_SOURCE },
        reportingComponent: 'kubelet',
      }),
      want: false,
      reason: 'Crossplane’s recorder sets both to the same name',
    },
    AboutADeployment: {
      event: event({
        involvedObject: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'api', namespace: 'team-a' },
        source: { component: XR_SOURCE },
      }),
      want: false,
      reason: 'Crossplane’s composite controllers report on XRs and claims, not on what they compose',
    },
    SameKindOtherGroup: {
      event: event({
        involvedObject: { ...app, apiVersion: 'evil.example.org/v1' },
        source: { component: XR_SOURCE },
      }),
      want: false,
      reason: 'a kind is an XR only in the group its XRD defines',
    },
    NoApiVersion: {
      event: event({
        involvedObject: { kind: 'App', name: 'web', namespace: 'team-a' },
        source: { component: XR_SOURCE },
      }),
      want: false,
      reason: 'without its group the object is not known to be an XR',
    },
    NoObject: {
      event: event({ source: { component: XR_SOURCE } }),
      want: false,
      reason: 'about nothing',
    },
  };
  it.each(Object.entries(cases))('%s', (_name, tc) => {
    expect(isCrossplaneCompositeEvent(tc.event, composites), tc.reason).toBe(tc.want);
  });
});

describe('the sources that grant: what each asks for', () => {
  const step = {
    step: 'run',
    functionRef: { name: 'function-python' },
    requirements: {
      requiredResources: [
        {
          requirementName: 'db',
          apiVersion: 'postgresql.cnpg.io/v1',
          kind: 'Cluster',
          matchLabels: { a: 'b' },
        },
        { requirementName: 'broken', kind: 'NoApiVersion' },
      ],
    },
  };
  const need = (n: { apiVersion: string; kind: string; access: string; evidence: Evidence }): string =>
    `${n.access} ${n.kind}.${n.apiVersion} ${JSON.stringify(n.evidence)}`;

  it('ACompositionRevisionIsReadAsItsComposition', () => {
    const revision: KubeObject = {
      apiVersion: 'apiextensions.crossplane.io/v1',
      kind: 'CompositionRevision',
      metadata: { name: 'app-1a2b3c' },
      spec: {
        mode: 'Pipeline',
        pipeline: [
          step,
          {
            step: 'pt',
            functionRef: { name: 'function-patch-and-transform' },
            input: {
              apiVersion: 'pt.fn.crossplane.io/v1beta1',
              kind: 'Resources',
              resources: [{ name: 'cron', base: { apiVersion: 'batch/v1', kind: 'CronJob' } }],
            },
          },
        ],
      },
    };
    const r = composedByComposition(revision);
    expect(r.needs.map(need)).toEqual([
      'read Cluster.postgresql.cnpg.io/v1 {"source":"CompositionRevision","name":"app-1a2b3c","step":"run","requirement":"db"}',
      'write CronJob.batch/v1 {"source":"CompositionRevision","name":"app-1a2b3c","step":"pt","resource":"cron"}',
    ]);
    expect(r.notAnalysed).toEqual([
      { kind: 'CompositionRevision', composition: 'app-1a2b3c', step: 'run', function: 'function-python' },
    ]);
  });

  const cases: Record<string, { op: KubeObject; want: string[]; reason: string }> = {
    Operation: {
      op: {
        apiVersion: 'ops.crossplane.io/v1alpha1',
        kind: 'Operation',
        metadata: { name: 'once' },
        spec: { mode: 'Pipeline', pipeline: [step] },
      },
      want: [
        'read Cluster.postgresql.cnpg.io/v1 {"source":"Operation","name":"once","step":"run","requirement":"db"}',
      ],
      reason: 'spec.pipeline[].requirements.requiredResources (apis/ops/v1alpha1 operation_types.go)',
    },
    CronOperation: {
      op: {
        apiVersion: 'ops.crossplane.io/v1alpha1',
        kind: 'CronOperation',
        metadata: { name: 'nightly' },
        spec: { schedule: '0 0 * * *', operationTemplate: { spec: { mode: 'Pipeline', pipeline: [step] } } },
      },
      want: [
        'read Cluster.postgresql.cnpg.io/v1 {"source":"CronOperation","name":"nightly","step":"run","requirement":"db"}',
      ],
      reason: 'spec.operationTemplate.spec.pipeline (cronoperation_types.go)',
    },
    WatchOperation: {
      op: {
        apiVersion: 'ops.crossplane.io/v1alpha1',
        kind: 'WatchOperation',
        metadata: { name: 'restart' },
        spec: {
          watch: { apiVersion: 'apps/v1', kind: 'StatefulSet' },
          operationTemplate: { spec: { mode: 'Pipeline', pipeline: [step] } },
        },
      },
      want: [
        'read StatefulSet.apps/v1 {"source":"WatchOperation","name":"restart"}',
        'read Cluster.postgresql.cnpg.io/v1 {"source":"WatchOperation","name":"restart","step":"run","requirement":"db"}',
      ],
      reason: 'the watched kind and the template’s steps (watchoperation_types.go)',
    },
    NotAnOperation: {
      op: {
        apiVersion: 'platform.acme.io/v1alpha1',
        kind: 'App',
        metadata: { name: 'web' },
        spec: { pipeline: [step] },
      },
      want: [],
      reason: 'only the three operation kinds are read as operations',
    },
  };
  it.each(Object.entries(cases))('%s', (_name, tc) => {
    expect(neededByOperation(tc.op).map(need), tc.reason).toEqual(tc.want);
  });
});
