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
