// `audit -o sarif` validated against the published SARIF 2.1.0 schema (test/fixtures/sarif, from oasis-tcs/sarif-spec)
// with ajv, a well-kept JSON Schema validator (its version 6 reads the schema's draft-04 dialect), and checked against
// the same run's -o json: one result per finding, each located at the file of the binding that opens its first step.
import Ajv from 'ajv';
import draft04 from 'ajv/lib/refs/json-schema-draft-04.json' with { type: 'json' };
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixturePath } from '../../support/fixtures.js';
import { runCaptured } from '../../support/run-cli.js';

interface Sarif {
  readonly version: string;
  readonly runs: readonly {
    readonly tool: { readonly driver: { readonly rules: readonly { id: string }[] } };
    readonly results: readonly {
      readonly ruleId: string;
      readonly level: string;
      readonly message: { text: string };
      readonly locations: readonly {
        physicalLocation?: { artifactLocation: { uri: string } };
        logicalLocations: readonly { name: string }[];
      }[];
    }[];
  }[];
}

interface Report {
  readonly findings: readonly {
    readonly capability: string;
    readonly severity: string;
    readonly steps: readonly { mechanism: string; via: readonly string[] }[];
  }[];
}

const ARGS = ['audit', '-f', 'examples/cluster', '-f', 'examples/audit'];

function validator(): Ajv.ValidateFunction {
  const ajv = new Ajv({ schemaId: 'id', allErrors: true, meta: false });
  ajv.addMetaSchema(draft04);
  const schema: unknown = JSON.parse(readFileSync(fixturePath('sarif', 'sarif-schema-2.1.0.json'), 'utf8'));
  return ajv.compile(schema as object);
}

describe('audit -o sarif', () => {
  it('is valid SARIF 2.1.0, one result per finding, located at the binding’s file', async () => {
    const sarifRun = await runCaptured([...ARGS, '-o', 'sarif']);
    expect(sarifRun.code, sarifRun.stderr).toBe(0);
    const doc = JSON.parse(sarifRun.stdout) as Sarif;
    const validate = validator();
    expect(validate(doc), JSON.stringify(validate.errors, null, 1)).toBe(true);
    const report = JSON.parse((await runCaptured([...ARGS, '-o', 'json'])).stdout) as Report;
    const [run] = doc.runs;
    expect(report.findings.length).toBeGreaterThan(0);
    expect(run?.results.map((r) => r.ruleId)).toStrictEqual(
      report.findings.map((f) => `${f.capability}/${f.steps[0]?.mechanism ?? ''}`),
    );
    for (const r of run?.results ?? []) {
      expect(r.level).toBe('error');
      expect(r.locations[0]?.physicalLocation?.artifactLocation.uri).toBe(
        'examples/audit/platform-team.yaml',
      );
      expect(r.locations[0]?.logicalLocations[0]?.name).toBe('ClusterRoleBinding/platform-engineers');
    }
    expect(new Set(run?.tool.driver.rules.map((x) => x.id))).toStrictEqual(
      new Set(run?.results.map((r) => r.ruleId)),
    );
  });

  it('the schema check can fail: a result without a message is refused', () => {
    const validate = validator();
    const bad = { version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [{ ruleId: 'r' }] }] };
    expect(validate(bad)).toBe(false);
  });
});
