// Stands in for js-yaml inside the bundle. @kubernetes/client-node parses the kubeconfig text the plugin hands it
// (written by `yaml`, which the plugin uses everywhere) with js-yaml; parsing it back with the same library is
// exact, and the bundle carries one YAML implementation instead of two. Covers the calls client-node makes.
import { parse, parseAllDocuments, stringify } from 'yaml';

export function load(text) {
  return parse(text);
}

export function loadAll(text, iterator) {
  const docs = parseAllDocuments(text).map((doc) => {
    if (doc.errors.length > 0) throw doc.errors[0];
    return doc.toJS();
  });
  if (typeof iterator !== 'function') return docs;
  docs.forEach((doc) => iterator(doc));
  return undefined;
}

export function dump(value) {
  return stringify(value);
}

export default { load, loadAll, dump };
