// Types of generate-examples.mjs, for the benchmarks that import it.

/** The full crossplane-contrib provider-upjet-aws family with the Crossplane chart, as multi-document YAML. */
export declare function fullFamilyYaml(inventories?: string): string;
