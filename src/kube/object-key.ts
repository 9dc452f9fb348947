/** Object identity. */

/** A stable identity for an object: `Kind/name` or `Kind/namespace/name`. */
export function objectKey(o: {
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string };
}): string {
  const ns = o.metadata.namespace;
  return ns !== undefined && ns !== ''
    ? `${o.kind}/${ns}/${o.metadata.name}`
    : `${o.kind}/${o.metadata.name}`;
}
