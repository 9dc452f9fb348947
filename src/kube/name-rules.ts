/** Names as Kubernetes validates them (apimachinery pkg/util/validation), with the reason a name is refused. */

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

function nameProblem(s: string, max: number, pattern: RegExp, rule: string): string | undefined {
  if (s === '') return 'it is empty';
  if (s.length > max) return `it is longer than ${max} characters`;
  return pattern.test(s) ? undefined : rule;
}

/** Why `s` is not a DNS-1123 subdomain (an API group, an object name), or undefined. */
export function dnsSubdomainProblem(s: string): string | undefined {
  return nameProblem(
    s,
    253,
    DNS1123_SUBDOMAIN,
    'only lower-case letters, digits, "-" and ".", starting and ending with a letter or digit',
  );
}

/** Why `s` is not a DNS-1123 label (a namespace name), or undefined. */
export function dnsLabelProblem(s: string): string | undefined {
  return nameProblem(
    s,
    63,
    DNS1123_LABEL,
    'only lower-case letters, digits and "-", starting and ending with a letter or digit',
  );
}

/** Why `s` is not a DNS-1035 label (a resource's plural), or undefined. */
export function dns1035LabelProblem(s: string): string | undefined {
  return nameProblem(
    s,
    63,
    DNS1035_LABEL,
    'only lower-case letters, digits and "-", starting with a letter and ending with a letter or digit',
  );
}

/** Why `group` cannot be a custom resource's API group, or undefined. */
export function apiGroupProblem(group: string): string | undefined {
  const p = dnsSubdomainProblem(group);
  if (p !== undefined) return p;
  if (!group.includes('.')) return 'a custom API group is a domain with at least one dot (e.g. example.org)';
  return undefined;
}
