/**
 * Decodes the Kubernetes protobuf request bodies kubectl sends for built-in kinds (`kubectl create ns|cm|
 * secret|sa|clusterrole|role|clusterrolebinding|rolebinding`, `kubectl auth can-i`) into their JSON form.
 * Envelope: "k8s\0" + runtime.Unknown{typeMeta=1{apiVersion=1, kind=2}, raw=2}. Field numbers follow
 * k8s.io/api's generated.proto files. Kinds not listed here are refused with 415.
 */

type Obj = Record<string, unknown>;
/** 'string' | 'int' | 'bool' | 'bytes' | 'time' | 'map' | 'bytesmap', or the name of a message schema. */
type FieldType = string;
/** field number → [json name, type, repeated] */
type Schema = Record<number, [string, FieldType, boolean?]>;

const meta: Schema = {
  1: ['name', 'string'],
  2: ['generateName', 'string'],
  3: ['namespace', 'string'],
  5: ['uid', 'string'],
  6: ['resourceVersion', 'string'],
  7: ['generation', 'int'],
  8: ['creationTimestamp', 'time'],
  11: ['labels', 'map'],
  12: ['annotations', 'map'],
  13: ['ownerReferences', 'OwnerReference', true],
  14: ['finalizers', 'string', true],
};

const SCHEMAS: Record<string, Schema> = {
  ObjectMeta: meta,
  OwnerReference: {
    1: ['kind', 'string'],
    3: ['name', 'string'],
    4: ['uid', 'string'],
    5: ['apiVersion', 'string'],
    6: ['controller', 'bool'],
    7: ['blockOwnerDeletion', 'bool'],
  },
  Namespace: { 1: ['metadata', 'ObjectMeta'], 2: ['spec', 'NamespaceSpec'] },
  NamespaceSpec: { 1: ['finalizers', 'string', true] },
  ConfigMap: {
    1: ['metadata', 'ObjectMeta'],
    2: ['data', 'map'],
    3: ['binaryData', 'bytesmap'],
    4: ['immutable', 'bool'],
  },
  Secret: {
    1: ['metadata', 'ObjectMeta'],
    2: ['data', 'bytesmap'],
    3: ['type', 'string'],
    4: ['stringData', 'map'],
    5: ['immutable', 'bool'],
  },
  ServiceAccount: {
    1: ['metadata', 'ObjectMeta'],
    3: ['imagePullSecrets', 'LocalObjectReference', true],
    4: ['automountServiceAccountToken', 'bool'],
  },
  LocalObjectReference: { 1: ['name', 'string'] },
  PolicyRule: {
    1: ['verbs', 'string', true],
    2: ['apiGroups', 'string', true],
    3: ['resources', 'string', true],
    4: ['resourceNames', 'string', true],
    5: ['nonResourceURLs', 'string', true],
  },
  AggregationRule: { 1: ['clusterRoleSelectors', 'LabelSelector', true] },
  LabelSelector: { 1: ['matchLabels', 'map'], 2: ['matchExpressions', 'LabelSelectorRequirement', true] },
  LabelSelectorRequirement: {
    1: ['key', 'string'],
    2: ['operator', 'string'],
    3: ['values', 'string', true],
  },
  ClusterRole: {
    1: ['metadata', 'ObjectMeta'],
    2: ['rules', 'PolicyRule', true],
    3: ['aggregationRule', 'AggregationRule'],
  },
  Role: { 1: ['metadata', 'ObjectMeta'], 2: ['rules', 'PolicyRule', true] },
  ClusterRoleBinding: {
    1: ['metadata', 'ObjectMeta'],
    2: ['subjects', 'Subject', true],
    3: ['roleRef', 'RoleRef'],
  },
  RoleBinding: { 1: ['metadata', 'ObjectMeta'], 2: ['subjects', 'Subject', true], 3: ['roleRef', 'RoleRef'] },
  Subject: {
    1: ['kind', 'string'],
    2: ['apiGroup', 'string'],
    3: ['name', 'string'],
    4: ['namespace', 'string'],
  },
  RoleRef: { 1: ['apiGroup', 'string'], 2: ['kind', 'string'], 3: ['name', 'string'] },
  SelfSubjectAccessReview: { 1: ['metadata', 'ObjectMeta'], 2: ['spec', 'SelfSubjectAccessReviewSpec'] },
  SelfSubjectAccessReviewSpec: {
    1: ['resourceAttributes', 'ResourceAttributes'],
    2: ['nonResourceAttributes', 'NonResourceAttributes'],
  },
  ResourceAttributes: {
    1: ['namespace', 'string'],
    2: ['verb', 'string'],
    3: ['group', 'string'],
    4: ['version', 'string'],
    5: ['resource', 'string'],
    6: ['subresource', 'string'],
    7: ['name', 'string'],
  },
  NonResourceAttributes: { 1: ['path', 'string'], 2: ['verb', 'string'] },
  SelfSubjectRulesReview: { 1: ['metadata', 'ObjectMeta'], 2: ['spec', 'SelfSubjectRulesReviewSpec'] },
  SelfSubjectRulesReviewSpec: { 1: ['namespace', 'string'] },
  SubjectAccessReview: { 1: ['metadata', 'ObjectMeta'], 2: ['spec', 'SubjectAccessReviewSpec'] },
  LocalSubjectAccessReview: { 1: ['metadata', 'ObjectMeta'], 2: ['spec', 'SubjectAccessReviewSpec'] },
  SubjectAccessReviewSpec: {
    1: ['resourceAttributes', 'ResourceAttributes'],
    2: ['nonResourceAttributes', 'NonResourceAttributes'],
    3: ['user', 'string'],
    4: ['groups', 'string', true],
    6: ['uid', 'string'],
  },
  Time: { 1: ['seconds', 'int'], 2: ['nanos', 'int'] },
  Unknown: {
    1: ['typeMeta', 'TypeMeta'],
    2: ['raw', 'bytes'],
    3: ['contentEncoding', 'string'],
    4: ['contentType', 'string'],
  },
  TypeMeta: { 1: ['apiVersion', 'string'], 2: ['kind', 'string'] },
  MapEntry: { 1: ['key', 'string'], 2: ['value', 'string'] },
  BytesMapEntry: { 1: ['key', 'string'], 2: ['value', 'bytes'] },
};

export class ProtobufError extends Error {}

class Reader {
  pos = 0;
  constructor(private readonly buf: Buffer) {}
  done(): boolean {
    return this.pos >= this.buf.length;
  }
  varint(): number {
    let result = 0;
    let mul = 1;
    for (;;) {
      if (this.pos >= this.buf.length) throw new ProtobufError('truncated varint');
      const b = this.buf[this.pos++] ?? 0;
      result += (b & 0x7f) * mul;
      if ((b & 0x80) === 0) return result;
      mul *= 128;
    }
  }
  bytes(): Buffer {
    const len = this.varint();
    if (this.pos + len > this.buf.length) throw new ProtobufError('truncated field');
    const out = this.buf.subarray(this.pos, this.pos + len);
    this.pos += len;
    return out;
  }
  skip(wire: number): void {
    if (wire === 0) this.varint();
    else if (wire === 1) this.pos += 8;
    else if (wire === 2) this.bytes();
    else if (wire === 5) this.pos += 4;
    else throw new ProtobufError(`unsupported wire type ${wire}`);
  }
}

function decodeMessage(buf: Buffer, schemaName: string): Obj {
  const schema = SCHEMAS[schemaName];
  if (schema === undefined) throw new ProtobufError(`no schema for ${schemaName}`);
  const r = new Reader(buf);
  const out: Obj = {};
  while (!r.done()) {
    const tag = r.varint();
    const field = Math.floor(tag / 8);
    const wire = tag & 7;
    const def = schema[field];
    if (def === undefined) {
      r.skip(wire);
      continue;
    }
    const [name, type, repeated] = def;
    let value: unknown;
    if (type === 'int' || type === 'bool') {
      const n = r.varint();
      value = type === 'bool' ? n !== 0 : n;
    } else if (wire !== 2) {
      throw new ProtobufError(`unexpected wire type for ${schemaName}.${name}`);
    } else if (type === 'string') {
      value = r.bytes().toString('utf8');
    } else if (type === 'bytes') {
      value = Buffer.from(r.bytes());
    } else if (type === 'map' || type === 'bytesmap') {
      const entry = decodeMessage(r.bytes(), type === 'map' ? 'MapEntry' : 'BytesMapEntry');
      const map = (out[name] ?? {}) as Obj;
      const v = entry.value;
      map[typeof entry.key === 'string' ? entry.key : ''] = Buffer.isBuffer(v)
        ? v.toString('base64')
        : (v ?? '');
      out[name] = map;
      continue;
    } else if (type === 'time') {
      const t = decodeMessage(r.bytes(), 'Time');
      value = new Date(Number(t.seconds ?? 0) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    } else {
      value = decodeMessage(r.bytes(), type);
    }
    if (repeated === true) out[name] = [...((out[name] as unknown[] | undefined) ?? []), value];
    else out[name] = value;
  }
  return out;
}

export function isProtobufBody(body: Buffer): boolean {
  return body.length >= 4 && body[0] === 0x6b && body[1] === 0x38 && body[2] === 0x73 && body[3] === 0x00;
}

/** The JSON object a protobuf-encoded request body stands for. */
export function decodeProtobufObject(body: Buffer): Obj {
  if (!isProtobufBody(body)) throw new ProtobufError('missing protobuf envelope');
  const unknown = decodeMessage(body.subarray(4), 'Unknown');
  const typeMeta = (unknown.typeMeta ?? {}) as Obj;
  const kind = typeof typeMeta.kind === 'string' ? typeMeta.kind : '';
  if (SCHEMAS[kind] === undefined || kind === 'Unknown' || kind === 'TypeMeta') {
    throw new ProtobufError(
      `protobuf decoding of kind ${JSON.stringify(kind)} is not supported by the test API server`,
    );
  }
  const raw = Buffer.isBuffer(unknown.raw) ? unknown.raw : Buffer.alloc(0);
  return { apiVersion: typeMeta.apiVersion, kind, ...decodeMessage(raw, kind) };
}
