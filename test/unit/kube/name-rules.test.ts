// Names as apimachinery validates them (k8s.io/apimachinery pkg/util/validation/validation.go): IsDNS1123Subdomain
// (at most 253 characters), IsDNS1123Label and IsDNS1035Label (at most 63), and a custom resource's group
// (apiextensions-apiserver ValidateCustomResourceDefinitionSpec: a subdomain with at least one dot).
import { describe, expect, it } from 'vitest';
import {
  apiGroupProblem,
  dns1035LabelProblem,
  dnsLabelProblem,
  dnsSubdomainProblem,
} from '../../../src/kube/name-rules.js';

const SUBDOMAIN = 'only lower-case letters, digits, "-" and ".", starting and ending with a letter or digit';
const LABEL = 'only lower-case letters, digits and "-", starting and ending with a letter or digit';
const LABEL1035 =
  'only lower-case letters, digits and "-", starting with a letter and ending with a letter or digit';

describe('dnsSubdomainProblem', () => {
  const cases: Record<string, { s: string; want: string | undefined }> = {
    One: { s: 'a', want: undefined },
    Dotted: { s: 'a-1.b.c', want: undefined },
    Max: { s: 'a'.repeat(253), want: undefined },
    TooLong: { s: 'a'.repeat(254), want: 'it is longer than 253 characters' },
    Empty: { s: '', want: 'it is empty' },
    Upper: { s: 'A', want: SUBDOMAIN },
    LeadingDash: { s: '-a', want: SUBDOMAIN },
    EmptyLabel: { s: 'a..b', want: SUBDOMAIN },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    expect(dnsSubdomainProblem(tc.s)).toBe(tc.want);
  });
});

describe('dnsLabelProblem', () => {
  const cases: Record<string, { s: string; want: string | undefined }> = {
    LeadingDigit: { s: '1a', want: undefined },
    Max: { s: 'a'.repeat(63), want: undefined },
    TooLong: { s: 'a'.repeat(64), want: 'it is longer than 63 characters' },
    Empty: { s: '', want: 'it is empty' },
    Dot: { s: 'a.b', want: LABEL },
    TrailingDash: { s: 'a-', want: LABEL },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    expect(dnsLabelProblem(tc.s)).toBe(tc.want);
  });
});

describe('dns1035LabelProblem', () => {
  const cases: Record<string, { s: string; want: string | undefined }> = {
    Letters: { s: 'buckets', want: undefined },
    TrailingDigit: { s: 'v1', want: undefined },
    Max: { s: 'a'.repeat(63), want: undefined },
    TooLong: { s: 'a'.repeat(64), want: 'it is longer than 63 characters' },
    Empty: { s: '', want: 'it is empty' },
    LeadingDigit: { s: '1a', want: LABEL1035 },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    expect(dns1035LabelProblem(tc.s)).toBe(tc.want);
  });
});

describe('apiGroupProblem', () => {
  const cases: Record<string, { s: string; want: string | undefined }> = {
    Domain: { s: 'example.org', want: undefined },
    NoDot: { s: 'example', want: 'a custom API group is a domain with at least one dot (e.g. example.org)' },
    Empty: { s: '', want: 'it is empty' },
    NotASubdomain: { s: 'Example.org', want: SUBDOMAIN },
  };
  it.each(Object.entries(cases))('%s', (_n, tc) => {
    expect(apiGroupProblem(tc.s)).toBe(tc.want);
  });
});
