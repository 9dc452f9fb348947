/** OCI image references of provider packages: which registry and organisation a package comes from. */

interface ImageContext {
  readonly registry: string;
  readonly repository: string;
}

const REPO_CHARS = /^[a-z0-9_./-]{2,255}$/;
const TAG_CHARS = /^[A-Za-z0-9_.-]{1,128}$/;
const DIGEST = /^sha256:[a-f0-9]{64}$/;
const REGISTRY = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:[0-9]*)?$/;
const DEFAULT_REGISTRY = 'index.docker.io';

/**
 * Parses an OCI reference the way go-containerregistry's name.ParseReference does with a default registry (empty
 * unless given): the first path segment is the registry only if it contains "." or ":" or is "localhost", else the
 * default registry applies; "docker.io" means "index.docker.io"; a one-segment repository on Docker Hub is
 * "library/<name>". Undefined when unparsable.
 */
export function parseImageContext(ref: string, defaultRegistry = ''): ImageContext | undefined {
  let base = ref;
  const at = base.indexOf('@');
  if (at >= 0) {
    if (base.indexOf('@', at + 1) >= 0 || !DIGEST.test(base.slice(at + 1))) return undefined;
    base = base.slice(0, at);
  }
  const colon = base.lastIndexOf(':');
  if (colon >= 0 && !base.slice(colon + 1).includes('/')) {
    const tag = base.slice(colon + 1);
    if (!TAG_CHARS.test(tag)) return undefined;
    base = base.slice(0, colon);
  }
  if (base === '') return undefined;
  let registry = defaultRegistry;
  let repository = base;
  const slash = base.indexOf('/');
  if (slash >= 0) {
    const first = base.slice(0, slash);
    if (first.includes('.') || first.includes(':') || first === 'localhost') {
      registry = first;
      repository = base.slice(slash + 1);
    }
  }
  if (!REPO_CHARS.test(repository)) return undefined;
  if (registry !== defaultRegistry && !REGISTRY.test(registry)) return undefined;
  if (registry === 'docker.io') registry = DEFAULT_REGISTRY;
  if (registry === DEFAULT_REGISTRY && !repository.includes('/')) repository = `library/${repository}`;
  return { registry, repository };
}

/** parseImageContext per default registry and reference: every member of a family is compared with every other. */
const imageContexts = new Map<string, ImageContext | undefined>();

function imageContext(ref: string, defaultRegistry: string): ImageContext | undefined {
  const key = `${defaultRegistry} ${ref}`;
  if (imageContexts.has(key)) return imageContexts.get(key);
  const context = parseImageContext(ref, defaultRegistry);
  imageContexts.set(key, context);
  return context;
}

/** True when two package images are in the same registry and organisation (crossplane's OrgDiffer, negated). */
export function sameRegistryAndOrg(
  a: string | undefined,
  b: string | undefined,
  defaultRegistry = '',
): boolean {
  const ca = imageContext(a ?? '', defaultRegistry);
  const cb = imageContext(b ?? '', defaultRegistry);
  if (ca === undefined || cb === undefined) return false;
  if (ca.registry !== cb.registry) return false;
  return ca.repository.split('/')[0] === cb.repository.split('/')[0];
}
