/**
 * Object validation with the real validators' messages (apimachinery/pkg/util/validation and
 * pkg/apis/rbac/validation).
 */
import type { StatusCause } from './status.js';
import type { ResourceInfo } from './registry.js';

type Obj = Record<string, any>;

const DNS1123_LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN = `${DNS1123_LABEL}(\\.${DNS1123_LABEL})*`;
const QUALIFIED_NAME = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_VALUE = `(${QUALIFIED_NAME})?`;

const SUBDOMAIN_MSG = `a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '${DNS1123_SUBDOMAIN}')`;
const LABEL_MSG = `a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '${DNS1123_LABEL}')`;
const NAME_PART_MSG = `name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '${QUALIFIED_NAME}')`;
const VALUE_MSG = `a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '${LABEL_VALUE}')`;

function goQuote(s: string): string {
  return JSON.stringify(s);
}

function invalidValue(field: string, value: string, detail: string): StatusCause {
  return { reason: 'FieldValueInvalid', message: `Invalid value: ${goQuote(value)}: ${detail}`, field };
}

function required(field: string, detail: string): StatusCause {
  return { reason: 'FieldValueRequired', message: `Required value: ${detail}`, field };
}

function isSubdomain(s: string): boolean {
  return s.length <= 253 && new RegExp(`^${DNS1123_SUBDOMAIN}$`).test(s);
}

function validateName(name: string, info: ResourceInfo): StatusCause[] {
  if (info.group === 'rbac.authorization.k8s.io') {
    // RBAC names are path segments (path.IsValidPathSegmentName), e.g. "system:aggregate-to-edit".
    if (name === '.' || name === '..') return [invalidValue('metadata.name', name, `may not be '${name}'`)];
    for (const bad of ['/', '%']) {
      if (name.includes(bad)) return [invalidValue('metadata.name', name, `may not contain '${bad}'`)];
    }
    return [];
  }
  if (info.resource === 'namespaces') {
    if (name.length > 63) return [invalidValue('metadata.name', name, 'must be no more than 63 characters')];
    return new RegExp(`^${DNS1123_LABEL}$`).test(name)
      ? []
      : [invalidValue('metadata.name', name, LABEL_MSG)];
  }
  if (name.length > 253) return [invalidValue('metadata.name', name, 'must be no more than 253 characters')];
  return isSubdomain(name) ? [] : [invalidValue('metadata.name', name, SUBDOMAIN_MSG)];
}

function validateLabels(labels: unknown): StatusCause[] {
  if (labels === undefined || labels === null) return [];
  const out: StatusCause[] = [];
  for (const [key, value] of Object.entries(labels as Obj)) {
    const slash = key.lastIndexOf('/');
    const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
    const name = slash >= 0 ? key.slice(slash + 1) : key;
    if (prefix !== undefined && !isSubdomain(prefix)) {
      out.push(invalidValue('metadata.labels', key, `prefix part ${SUBDOMAIN_MSG}`));
    }
    if (name.length === 0) out.push(invalidValue('metadata.labels', key, 'name part must be non-empty'));
    else if (name.length > 63)
      out.push(invalidValue('metadata.labels', key, 'name part must be no more than 63 characters'));
    else if (!new RegExp(`^${QUALIFIED_NAME}$`).test(name))
      out.push(invalidValue('metadata.labels', key, NAME_PART_MSG));
    if (typeof value !== 'string') {
      out.push(invalidValue('metadata.labels', String(value), 'must be a string'));
    } else {
      // IsLabelValue: the length and the pattern are checked independently, so a value can fail both.
      if (value.length > 63)
        out.push(invalidValue('metadata.labels', value, 'must be no more than 63 characters'));
      if (!new RegExp(`^${LABEL_VALUE}$`).test(value))
        out.push(invalidValue('metadata.labels', value, VALUE_MSG));
    }
  }
  return out;
}

function validateRules(rules: unknown, namespaced: boolean): StatusCause[] {
  if (rules === undefined || rules === null) return [];
  if (!Array.isArray(rules)) return [invalidValue('rules', JSON.stringify(rules), 'must be a list')];
  const out: StatusCause[] = [];
  rules.forEach((rule: Obj, i) => {
    const f = `rules[${i}]`;
    const len = (v: unknown): number => (Array.isArray(v) ? v.length : 0);
    if (len(rule.verbs) === 0) out.push(required(`${f}.verbs`, 'verbs must contain at least one value'));
    if (len(rule.nonResourceURLs) > 0) {
      if (namespaced) {
        out.push({
          reason: 'FieldValueInvalid',
          message: `Invalid value: ${JSON.stringify(rule.nonResourceURLs)}: namespaced rules cannot apply to non-resource URLs`,
          field: `${f}.nonResourceURLs`,
        });
      }
      if (len(rule.apiGroups) > 0 || len(rule.resources) > 0 || len(rule.resourceNames) > 0) {
        out.push({
          reason: 'FieldValueInvalid',
          message: `Invalid value: ${JSON.stringify(rule.nonResourceURLs)}: nonResourceURLs cannot be used with resources or resourceNames`,
          field: `${f}.nonResourceURLs`,
        });
      }
      return;
    }
    if (len(rule.apiGroups) === 0)
      out.push(required(`${f}.apiGroups`, 'resource rules must supply at least one api group'));
    if (len(rule.resources) === 0)
      out.push(required(`${f}.resources`, 'resource rules must supply at least one resource'));
  });
  return out;
}

function validateBinding(obj: Obj, info: ResourceInfo): StatusCause[] {
  const out: StatusCause[] = [];
  const ref = obj.roleRef as Obj | undefined;
  if (ref === undefined || ref === null) return [required('roleRef', '')];
  const kinds = info.resource === 'clusterrolebindings' ? ['ClusterRole'] : ['Role', 'ClusterRole'];
  if (!kinds.includes(ref.kind)) {
    out.push({
      reason: 'FieldValueNotSupported',
      message: `Unsupported value: ${goQuote(String(ref.kind))}: supported values: ${kinds.map(goQuote).join(', ')}`,
      field: 'roleRef.kind',
    });
  }
  if (ref.apiGroup !== 'rbac.authorization.k8s.io') {
    out.push({
      reason: 'FieldValueNotSupported',
      message: `Unsupported value: ${goQuote(String(ref.apiGroup))}: supported values: "rbac.authorization.k8s.io"`,
      field: 'roleRef.apiGroup',
    });
  }
  if (typeof ref.name !== 'string' || ref.name === '') out.push(required('roleRef.name', ''));
  const subjects = Array.isArray(obj.subjects) ? (obj.subjects as Obj[]) : [];
  subjects.forEach((s, i) => {
    const f = `subjects[${i}]`;
    if (typeof s.name !== 'string' || s.name === '') out.push(required(`${f}.name`, ''));
    if (!['User', 'Group', 'ServiceAccount'].includes(s.kind)) {
      out.push({
        reason: 'FieldValueNotSupported',
        message: `Unsupported value: ${goQuote(String(s.kind))}: supported values: "ServiceAccount", "User", "Group"`,
        field: `${f}.kind`,
      });
    }
    if (
      s.kind === 'ServiceAccount' &&
      info.resource === 'clusterrolebindings' &&
      (s.namespace ?? '') === ''
    ) {
      out.push(required(`${f}.namespace`, ''));
    }
  });
  return out;
}

/** All validation errors of an object about to be stored; `old` is set on updates. */
export function validateObject(obj: Obj, info: ResourceInfo, old?: Obj): StatusCause[] {
  const meta = (obj.metadata ?? {}) as Obj;
  const name = typeof meta.name === 'string' ? meta.name : '';
  const out: StatusCause[] = [];
  if (name === '') out.push(required('metadata.name', 'name or generateName is required'));
  else out.push(...validateName(name, info));
  out.push(...validateLabels(meta.labels));
  if (info.group === 'rbac.authorization.k8s.io') {
    if (info.resource === 'clusterroles' || info.resource === 'roles') {
      out.push(...validateRules(obj.rules, info.namespaced));
    }
    if (
      info.resource === 'clusterroles' &&
      obj.aggregationRule !== undefined &&
      obj.aggregationRule !== null
    ) {
      const sels = obj.aggregationRule.clusterRoleSelectors;
      if (!Array.isArray(sels) || sels.length === 0) {
        out.push(
          required(
            'aggregationRule.clusterRoleSelectors',
            'at least one clusterRoleSelector required if aggregationRule is non-nil',
          ),
        );
      }
    }
    if (info.resource === 'clusterrolebindings' || info.resource === 'rolebindings') {
      out.push(...validateBinding(obj, info));
      if (old !== undefined && JSON.stringify(old.roleRef) !== JSON.stringify(obj.roleRef)) {
        out.push({
          reason: 'FieldValueInvalid',
          message: `Invalid value: ${JSON.stringify(obj.roleRef)}: cannot change roleRef`,
          field: 'roleRef',
        });
      }
    }
  }
  if (info.resource === 'customresourcedefinitions') {
    const spec = (obj.spec ?? {}) as Obj;
    const plural = spec.names?.plural;
    if (typeof spec.group !== 'string' || typeof plural !== 'string' || name !== `${plural}.${spec.group}`) {
      out.push(invalidValue('metadata.name', name, `must be spec.names.plural+"."+spec.group`));
    }
  }
  return out;
}
