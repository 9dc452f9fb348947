/**
 * The value of the `rbac.crossplane.io/xrd` label the namespace roles select an XRD's roles by: the XRD's name when it
 * is a valid label value, else a shortened form with a hash of the whole name; never the same for two XRDs.
 */
import { describe, expect, it } from 'vitest';
import { renderNamespaceRoles, renderXrdNamespaceRoles } from '../../../src/crossplane/namespace/roles.js';
import { fnv1a64Hex, xrdLabelValue } from '../../../src/crossplane/definition/roles.js';
import { namespace, xrd } from '../sync/sync-fixtures.js';

const LONG = `${'x'.repeat(70)}.example.org`;

describe('xrdLabelValue', () => {
  it('keeps a valid name and shortens a long one to a valid, deterministic value', () => {
    expect(xrdLabelValue('a.example.org')).toBe('a.example.org');
    const v = xrdLabelValue(LONG);
    expect(v.length).toBeLessThanOrEqual(63);
    expect(v).toMatch(/^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/);
    expect(v).toBe(xrdLabelValue(LONG));
    expect(v).not.toBe(xrdLabelValue(`${'x'.repeat(70)}.example.net`));
  });

  it('two XRDs never share a value: names with a long common prefix, and a valid XRD name equal to another’s shortened form', () => {
    // A long name is shortened to 46 characters, "-" and 16 hex digits: that form is itself a valid XRD name
    // (plural `xnets`, group `platform.example.org.a-very-long-subdoma-<hash>`, each DNS label under 63), so an XRD
    // may be named what another one's label says. The namespace roles select an XRD's roles by this label alone.
    const long = 'xnets.platform.example.org.a-very-long-subdomain-for-testing.example.com';
    const twin = `${long.slice(0, 46)}-${fnv1a64Hex(long)}`;
    expect(twin).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/);
    expect(twin.split('.').every((label) => label.length <= 63)).toBe(true);
    const values = [long, twin, `${long.slice(0, 60)}zzzz.example.com`].map(xrdLabelValue);
    expect(new Set(values).size).toBe(3);
    // The namespace role of a namespace that enables only the twin does not select the long XRD's roles.
    const selected = renderNamespaceRoles(namespace('team'), [twin])[0]?.aggregationRule
      ?.clusterRoleSelectors;
    const longLabels =
      renderXrdNamespaceRoles(xrd(long, { claimNames: { kind: 'Net', plural: 'nets' } }))[0]?.metadata
        .labels ?? {};
    const matches = (selected ?? []).filter((sel) =>
      Object.entries(sel.matchLabels ?? {}).every(([k, v]) => longLabels[k] === v),
    );
    expect(matches).toStrictEqual([]);
    // A valid name that cannot be a shortened form is its own value, as Crossplane v1 labels it.
    expect(xrdLabelValue('xnets.platform.example.org')).toBe('xnets.platform.example.org');
  });

  it('hashes with FNV-1a 64 (published test vectors)', () => {
    expect(fnv1a64Hex('')).toBe('cbf29ce484222325');
    expect(fnv1a64Hex('a')).toBe('af63dc4c8601ec8c');
    expect(fnv1a64Hex('foobar')).toBe('85944171f73967e8');
  });
});
