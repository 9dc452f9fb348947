// The CRD inventories of the provider packages: plain name lists and by-package tables of the real packages, read
// from --inventories (default: test/fixtures/real, whose README names each inventory's source).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { compareStrings } from '../../src/kube/order.js';

/** One CRD of a by-package inventory. */
export interface CrdRow {
  readonly name: string;
  readonly group: string;
  readonly plural: string;
  readonly kind: string;
  readonly scope: string;
  readonly versions: readonly string[];
}

export function readInventoryLines(dir: string, file: string): string[] {
  const p = path.join(dir, file);
  if (!existsSync(p)) {
    throw new Error(
      `CRD inventory ${p} not found; pass --inventories DIR (the committed examples/ do not need this script)`,
    );
  }
  return readFileSync(p, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

/** The kinds of a provider's configuration (provider-wide, not managed resources). */
const CONFIG_KINDS = new Set(['ProviderConfig', 'ClusterProviderConfig', 'ProviderConfigUsage', 'StoreConfig']);

/**
 * CRD name -> its row (kind, scope, versions as the package's CRD declares them): what definedCrds writes instead of
 * guessing from the name. Every CRD of the single providers (small-providers-crds.tsv), and the configuration kinds
 * of the AWS families; their managed resources keep the guessed kind (a guess the examples' outputs are made of).
 */
export function readCrdDetails(dir: string): Map<string, CrdRow> {
  const details = new Map<string, CrdRow>();
  for (const rows of readByPackage(dir, 'small-providers-crds.tsv').values()) {
    for (const r of rows) details.set(r.name, r);
  }
  for (const file of ['provider-upjet-aws-v1.23.0-crds-by-package.tsv', 'provider-upjet-aws-crds-by-package.tsv']) {
    for (const rows of readByPackage(dir, file).values()) {
      for (const r of rows) if (CONFIG_KINDS.has(r.kind)) details.set(r.name, r);
    }
  }
  return details;
}

/** package name -> CRD rows sorted by name, from a by-package TSV. */
export function readByPackage(dir: string, file: string): Map<string, CrdRow[]> {
  const byPackage = new Map<string, CrdRow[]>();
  for (const line of readInventoryLines(dir, file)) {
    const [name = '', pkg = '', group = '', plural = '', kind = '', scope = '', versions = ''] = line.split('\t');
    let rows = byPackage.get(pkg);
    if (rows === undefined) byPackage.set(pkg, (rows = []));
    rows.push({ name, group, plural, kind, scope, versions: versions.split(',') });
  }
  for (const rows of byPackage.values()) rows.sort((a, b) => compareStrings(a.name, b.name));
  return byPackage;
}
