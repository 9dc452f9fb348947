// The corpus of bad inputs (issue #12): one case per way an administrator, a script or an attacker can hand the
// plugin something wrong. Every case names the exact `error:` line it must produce; files that are big or special
// (devices, FIFOs, sockets, symbolic link loops, sparse files) are made by `makeBadInputCases` in a temporary
// directory. Shared by the in-process corpus test and the end-to-end test of the built binary.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';

export interface BadInputCase {
  /** Why this input must be refused, and what the user needs to hear. */
  readonly reason: string;
  readonly argv: readonly string[];
  readonly stdin?: string;
  /** The one `error:` line, exactly. */
  readonly error: string;
  /** The `hint:` line, when the case asserts it. */
  readonly hint?: string;
  /** Set when this machine cannot produce the input; the test is skipped with this reason. */
  readonly skip?: string;
  /**
   * Set for an invalid XRD or ProviderRevision given to sync: the owner is held (listed as `held ERROR`), the rest
   * is planned, and the one `error:` line is the summary; `error` is then the held line's text.
   */
  readonly held?: boolean;
}

const XRD_API = 'apiextensions.crossplane.io/v1';
const PR_API = 'pkg.crossplane.io/v1';
const RBAC = 'rbac.authorization.k8s.io/v1';

/** A valid XRD, as YAML, with spec fields replaced. */
function xrdYaml(name: string, spec: string): string {
  return `apiVersion: ${XRD_API}\nkind: CompositeResourceDefinition\nmetadata:\n  name: ${name}\nspec:\n${spec}`;
}

const GOOD_SPEC = '  group: example.org\n  names:\n    kind: XBucket\n    plural: xbuckets\n';

function prYaml(objectRefs: string, extra = ''): string {
  return `apiVersion: ${PR_API}\nkind: ProviderRevision\nmetadata:\n  name: provider-x-1\nspec:\n  image: xpkg.upbound.io/x/provider-x:v1\n${extra}status:\n  objectRefs:\n${objectRefs}`;
}

function crdRef(name: string): string {
  return `    - apiVersion: apiextensions.k8s.io/v1\n      kind: CustomResourceDefinition\n      name: "${name}"\n`;
}

function clusterRoleYaml(name: string, body: string): string {
  return `apiVersion: ${RBAC}\nkind: ClusterRole\nmetadata:\n  name: ${name}\n${body}`;
}

/** `depth` nested YAML sequences holding one scalar, written as block sequences. */
function billionLaughs(): string {
  const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  const names = 'abcdefghi';
  for (let i = 1; i < names.length; i++) {
    const prev = names[i - 1] ?? 'a';
    lines.push(`${names[i] ?? ''}: &${names[i] ?? ''} [${Array(9).fill(`*${prev}`).join(',')}]`);
  }
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: lol\ndata:\n${lines.map((l) => `  ${l}`).join('\n')}\n`;
}

export interface Corpus {
  readonly cases: Readonly<Record<string, BadInputCase>>;
  /** Stops what the corpus started (the socket's server). */
  readonly close: () => Promise<void>;
}

/** Makes every special file under `dir` and returns the cases that read them. */
export async function makeBadInputCases(dir: string, exampleCluster: string): Promise<Corpus> {
  const file = (name: string, text: string | Uint8Array): string => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };
  const sub = (name: string): string => {
    const p = join(dir, name);
    mkdirSync(p, { recursive: true });
    return p;
  };
  const good = file('good.yaml', xrdYaml('xbuckets.example.org', GOOD_SPEC));
  // A directory holding one file, given with -f beside that file.
  const alone = file(
    `${sub('alone')}/xrd.yaml`.slice(dir.length + 1),
    xrdYaml('xbuckets.example.org', GOOD_SPEC),
  );

  // Special files.
  const fifo = join(dir, 'pipe.yaml');
  execFileSync('mkfifo', [fifo]);
  const sock = join(dir, 'sock.yaml');
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(sock, resolve));
  const loopA = join(dir, 'loop-a.yaml');
  const loopB = join(dir, 'loop-b.yaml');
  symlinkSync(loopB, loopA);
  symlinkSync(loopA, loopB);
  const self = join(dir, 'self.yaml');
  symlinkSync(self, self);
  const dangling = join(dir, 'dangling.yaml');
  symlinkSync(join(dir, 'gone.yaml'), dangling);
  const sparse = file('huge.json', '');
  truncateSync(sparse, 300 * 1024 * 1024);
  const unreadable = file('secret.yaml', xrdYaml('xbuckets.example.org', GOOD_SPEC));
  chmodSync(unreadable, 0o000);
  const isRoot = process.getuid?.() === 0;

  const emptyDir = sub('empty-dir');
  file('empty-dir/README.md', 'not a manifest\n');
  const loopDir = sub('loop-dir');
  symlinkSync(join(loopDir, 'x.yaml'), join(loopDir, 'x.yaml'));
  const danglingDir = sub('dangling-dir');
  symlinkSync(join(danglingDir, 'missing'), join(danglingDir, 'a.yaml'));
  const fifoDir = sub('fifo-dir');
  execFileSync('mkfifo', [join(fifoDir, 'objects.yaml')]);
  const linkToDirDir = sub('link-to-dir');
  symlinkSync(emptyDir, join(linkToDirDir, 'objects.yaml'));
  const splitA = file('split-a.yaml', xrdYaml('xbuckets.example.org', GOOD_SPEC));
  const splitB = file('split-b.yaml', `---\n${xrdYaml('xbuckets.example.org', GOOD_SPEC)}`);
  const small1 = file('small-1.yaml', `# ${'x'.repeat(700)}\n`);
  const small2 = file('small-2.yaml', `# ${'y'.repeat(700)}\n`);

  const sync = (path: string, ...more: string[]): string[] => ['sync', '-f', path, ...more];
  const syncText = (name: string, text: string | Uint8Array): string[] => sync(file(name, text));
  const bindText = (name: string, text: string, role: string): string[] => [
    'bind',
    '--service-account',
    'flux-system/kustomize-controller',
    '--role-ref',
    role,
    '-f',
    file(name, text),
  ];

  const cases: Record<string, BadInputCase> = {
    // ---- paths that are not a file, a directory or stdin ----
    MissingFile: {
      reason: 'a typo in -f names the path',
      argv: sync(join(dir, 'nope.yaml')),
      error: `cannot read ${dir}/nope.yaml: no such file or directory`,
      hint: 'pass -f with a file, a directory or - for standard input',
    },
    SecondOfTwoMissing: {
      reason: 'with -f A -f B, the message names B, not "A,B"',
      argv: ['sync', '-f', good, '-f', join(dir, 'nope-b.yaml')],
      error: `cannot read ${dir}/nope-b.yaml: no such file or directory`,
    },
    EmptyPath: {
      reason: "-f '' is a usage error, not a file named ''",
      argv: ['sync', '-f', ''],
      error: '-f needs a path: a file, a directory, or - for standard input',
    },
    FlagWithoutValue: {
      reason: '-f at the end of the line has no path',
      argv: ['explain', 'admin', '-f'],
      error: '-f needs a path: a file, a directory, or - for standard input',
    },
    DevZero: {
      reason: '/dev/zero grew the process to 16 GB: a device is refused before it is read',
      argv: sync('/dev/zero'),
      error: 'cannot read /dev/zero: not a regular file or directory (a character device)',
      hint: 'to read a pipe or the output of a command, redirect it to standard input and pass -f -',
    },
    DevUrandom: {
      reason: '/dev/urandom hung: refused before it is read',
      argv: sync('/dev/urandom'),
      error: 'cannot read /dev/urandom: not a regular file or directory (a character device)',
    },
    DevNull: {
      reason: 'a device is not a manifest, even an empty one',
      argv: ['explain', 'admin', '-f', '/dev/null'],
      error: 'cannot read /dev/null: not a regular file or directory (a character device)',
    },
    Fifo: {
      reason: 'opening a FIFO without a writer blocks forever: refused from its type',
      argv: sync(fifo),
      error: `cannot read ${fifo}: not a regular file or directory (a named pipe (FIFO))`,
    },
    Socket: {
      reason: 'a socket cannot be read as a file',
      argv: sync(sock),
      error: `cannot read ${sock}: not a regular file or directory (a socket)`,
    },
    SymlinkLoop: {
      reason: 'two links pointing at each other',
      argv: sync(loopA),
      error: `cannot read ${loopA}: too many levels of symbolic links (a symbolic link loop)`,
    },
    SelfLink: {
      reason: 'a link pointing at itself',
      argv: sync(self),
      error: `cannot read ${self}: too many levels of symbolic links (a symbolic link loop)`,
    },
    DanglingLink: {
      reason: 'a link whose target was deleted names the target',
      argv: sync(dangling),
      error: `cannot read ${dangling}: it is a symbolic link to ${dir}/gone.yaml, which does not exist`,
    },
    PathThroughAFile: {
      reason: 'a file used as a directory',
      argv: sync(`${good}/more.yaml`),
      error: `cannot read ${good}/more.yaml: a part of the path is a file, not a directory`,
    },
    UnreadableFile: {
      reason: 'a file without read permission',
      argv: sync(unreadable),
      error: `cannot read ${unreadable}: permission denied`,
      ...(isRoot
        ? { skip: 'running as root: mode 000 does not stop root from reading (see the cannotRead table)' }
        : {}),
    },
    DirectoryWithoutManifests: {
      reason: 'a directory with nothing to read',
      argv: sync(emptyDir),
      error: `no .yaml, .yml or .json files in directory ${emptyDir}`,
    },
    LoopInsideDirectory: {
      reason: 'a walked directory holding a symbolic link loop names the link',
      argv: sync(loopDir),
      error: `cannot read ${loopDir}/x.yaml: too many levels of symbolic links (a symbolic link loop)`,
    },
    DanglingLinkInsideDirectory: {
      reason: 'a walked directory holding a dangling link names it',
      argv: sync(danglingDir),
      error: `cannot read ${danglingDir}/a.yaml: it is a symbolic link to ${danglingDir}/missing, which does not exist`,
    },
    FifoInsideDirectory: {
      reason: 'a FIFO named like a manifest inside a walked directory',
      argv: sync(fifoDir),
      error: `cannot read ${fifoDir}/objects.yaml: not a regular file or directory (a named pipe (FIFO))`,
    },
    LinkToDirectoryNamedLikeAFile: {
      reason: 'a directory where a file was expected',
      argv: sync(linkToDirDir),
      error: `cannot read ${linkToDirDir}/objects.yaml: it is a directory, not a file`,
    },
    RoleRefsFileIsADirectory: {
      reason: '--role-refs-file given a directory',
      argv: ['bind', '--service-account', 'a/b', '--role-refs-file', dir, '-f', exampleCluster],
      error: `cannot read --role-refs-file ${dir}: it is a directory, not a file`,
    },
    RoleRefsFileIsADevice: {
      reason: '--role-refs-file is read as carefully as -f',
      argv: ['bind', '--service-account', 'a/b', '--role-refs-file', '/dev/zero', '-f', exampleCluster],
      error: 'cannot read --role-refs-file /dev/zero: not a regular file (a character device)',
    },
    StdinTwice: {
      reason: 'standard input can be read once',
      argv: ['sync', '-f', '-', '-f', '-'],
      error: '-f - (standard input) can be given only once',
    },

    // ---- size ----
    HugeSparseFile: {
      reason: 'a 300 MiB file is refused from its size, before it is read',
      argv: sync(sparse),
      error: `input larger than --max-input-size 256Mi: ${sparse} is 300Mi`,
      hint: 'raise the limit (e.g. --max-input-size 512Mi) or read fewer files',
    },
    FileOverALowerLimit: {
      reason: 'the limit can be lowered',
      argv: sync(good, '--max-input-size', '100'),
      error: `input larger than --max-input-size 100 bytes: ${good} is 191 bytes`,
    },
    FilesTogetherOverTheLimit: {
      reason: 'the limit is for all inputs together',
      argv: ['sync', '-f', small1, '-f', small2, '--max-input-size', '1Ki'],
      error: `input larger than --max-input-size 1Ki: ${small2} (703 bytes) takes the input past it`,
    },
    StdinOverTheLimit: {
      reason: 'standard input is bounded too',
      argv: ['sync', '-f', '-', '--max-input-size', '1Ki'],
      stdin: `# ${'z'.repeat(2000)}\n`,
      error: 'input larger than --max-input-size 1Ki: standard input holds more than that',
    },
    BadMaxInputSize: {
      reason: 'the flag says what it expected',
      argv: sync(good, '--max-input-size', 'lots'),
      error: 'invalid --max-input-size "lots": expected a size such as 256Mi, 1Gi or 500000 (bytes)',
    },
    ZeroMaxInputSize: {
      reason: 'a limit of nothing is a mistake',
      argv: sync(good, '--max-input-size', '0'),
      error: 'invalid --max-input-size "0": expected a size such as 256Mi, 1Gi or 500000 (bytes)',
    },
    ConcurrencyNotANumber: {
      reason: '--concurrency abc said "NaN"',
      argv: sync(good, '--concurrency', 'abc'),
      error: 'invalid --concurrency "abc": expected a whole number',
    },
    ConcurrencyZero: {
      reason: 'no writes could ever run',
      argv: sync(good, '--concurrency=0'),
      error: 'invalid --concurrency 0',
    },

    // ---- text that is not YAML or JSON ----
    UnclosedFlowSequence: {
      reason: 'malformed YAML names the file and line',
      argv: syncText('unclosed.yaml', 'apiVersion: v1\nkind: List\nitems:\n  - {a: [\n'),
      error: `malformed YAML/JSON in ${dir}/unclosed.yaml at line 5: unexpected end of the stream within a flow collection`,
    },
    TruncatedJson: {
      reason: 'JSON that JSON.parse refuses is reported with a line',
      argv: syncText('truncated.json', '{"apiVersion": "v1",\n "kind": "List",\n "items": [\n'),
      error: `malformed YAML/JSON in ${dir}/truncated.json at line 4: unexpected end of the stream within a flow collection`,
    },
    TabIndentation: {
      reason: 'tabs are not YAML indentation',
      argv: syncText('tabs.yaml', 'apiVersion: v1\nkind: Namespace\nmetadata:\n\tname: x\n'),
      error: `malformed YAML/JSON in ${dir}/tabs.yaml at line 4: tab characters must not be used in indentation`,
    },
    DuplicateKey: {
      reason: 'a key given twice is ambiguous',
      argv: syncText(
        'dupkey.yaml',
        'apiVersion: v1\nkind: Namespace\nkind: ConfigMap\nmetadata: {name: x}\n',
      ),
      error: `malformed YAML/JSON in ${dir}/dupkey.yaml at line 3: duplicated mapping key`,
    },
    BillionLaughs: {
      reason: 'nine aliases of nine expand to 387 million strings: refused while walking',
      argv: syncText('lol.yaml', billionLaughs()),
      error: `${dir}/lol.yaml: YAML aliases expand to more values than the file holds (an alias bomb or an alias cycle)`,
    },
    AliasCycle: {
      reason: 'an alias inside its own anchor is an infinite object',
      argv: syncText(
        'cycle.yaml',
        'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: &d {x: *d}\n',
      ),
      error: `${dir}/cycle.yaml: YAML aliases expand to more values than the file holds (an alias bomb or an alias cycle)`,
    },
    DeepJson: {
      reason: '100,000 nested lists would overflow the stack of any walker',
      argv: syncText('deep.json', `${'['.repeat(100_000)}${']'.repeat(100_000)}`),
      error: `${dir}/deep.json: nested more than 100 levels deep: not a Kubernetes object`,
    },
    DeepYaml: {
      reason: 'the YAML parser stops deep nesting itself',
      argv: syncText('deep.yaml', `x: ${'['.repeat(500)}${']'.repeat(500)}\n`),
      error: `malformed YAML/JSON in ${dir}/deep.yaml at line 1: nesting exceeded maxDepth (100)`,
    },
    BinaryFile: {
      reason: 'a binary file given by mistake',
      argv: syncText(
        'image.yaml',
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
      ),
      error: `malformed YAML/JSON in ${dir}/image.yaml at line 1: null byte is not allowed in input`,
    },
    UnknownTag: {
      reason: 'custom YAML tags are not Kubernetes',
      argv: syncText('tag.yaml', 'apiVersion: v1\nkind: Namespace\nmetadata: !secret {name: x}\n'),
      error: `malformed YAML/JSON in ${dir}/tag.yaml at line 3: unknown tag !<!secret>`,
    },
    TopLevelString: {
      reason: 'a document that is a plain string',
      argv: syncText('string.yaml', 'hello world\n'),
      error: `${dir}/string.yaml: expected a Kubernetes object, found a string`,
    },
    TopLevelNumberJson: {
      reason: 'JSON that is a number',
      argv: syncText('number.json', '42\n'),
      error: `${dir}/number.json: expected a Kubernetes object, found a number`,
    },
    ListOfScalars: {
      reason: 'a top-level YAML list names the entry',
      argv: syncText('scalars.yaml', '- 1\n- 2\n'),
      error: `${dir}/scalars.yaml: [0]: expected a Kubernetes object, found a number`,
    },
    SecondDocumentBad: {
      reason: 'in a multi-document file the document is named',
      argv: syncText('multi.yaml', `${xrdYaml('xbuckets.example.org', GOOD_SPEC)}---\ntrue\n`),
      error: `${dir}/multi.yaml (document 2): expected a Kubernetes object, found a boolean`,
    },
    NoApiVersionNorKind: {
      reason: 'a mapping that is not an object',
      argv: syncText('plain.yaml', 'name: x\n'),
      error: `${dir}/plain.yaml: object without apiVersion and kind`,
    },
    KindIsANumber: {
      reason: 'kind must be text',
      argv: syncText('kind.yaml', 'apiVersion: v1\nkind: 5\nmetadata: {name: x}\n'),
      error: `${dir}/kind.yaml: kind must be a non-empty string, found a number`,
    },
    EmptyApiVersion: {
      reason: 'an empty apiVersion',
      argv: syncText('apiversion.yaml', 'apiVersion: ""\nkind: Namespace\nmetadata: {name: x}\n'),
      error: `${dir}/apiversion.yaml: apiVersion must be a non-empty string, found an empty string`,
    },
    ListItemsNotAList: {
      reason: 'a List whose items is not a list',
      argv: syncText('items.yaml', 'apiVersion: v1\nkind: List\nitems: 5\n'),
      error: `${dir}/items.yaml: List items must be a list, found a number`,
    },
    ListItemScalar: {
      reason: 'a List item that is not an object names its index',
      argv: syncText(
        'item.json',
        '{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"a"}},"b"]}',
      ),
      error: `${dir}/item.json: items[1]: expected a Kubernetes object, found a string`,
    },
    NoMetadata: {
      reason: 'an object without a name cannot be rendered or matched',
      argv: syncText('nometa.yaml', 'apiVersion: v1\nkind: Namespace\n'),
      error: `${dir}/nometa.yaml: Namespace without metadata.name`,
    },
    NameIsANumber: {
      reason: 'names are text',
      argv: syncText('name.yaml', 'apiVersion: v1\nkind: Namespace\nmetadata: {name: 5}\n'),
      error: `${dir}/name.yaml: Namespace without metadata.name (it is a number)`,
    },
    MetadataIsAList: {
      reason: 'metadata must be a mapping',
      argv: syncText('metalist.yaml', 'apiVersion: v1\nkind: Namespace\nmetadata: [a]\n'),
      error: `${dir}/metalist.yaml: Namespace without metadata.name (metadata is a list)`,
    },
    SameObjectTwiceInOneFile: {
      reason: 'which of two copies is the real one?',
      argv: syncText(
        'twice.yaml',
        `${xrdYaml('xbuckets.example.org', GOOD_SPEC)}---\n${xrdYaml('xbuckets.example.org', GOOD_SPEC)}`,
      ),
      error: `CompositeResourceDefinition "xbuckets.example.org" is given twice: ${dir}/twice.yaml (document 1) and ${dir}/twice.yaml (document 2)`,
    },
    SameObjectInTwoFiles: {
      reason: 'the same object in two -f files',
      argv: ['sync', '-f', splitA, '-f', splitB],
      error: `CompositeResourceDefinition "xbuckets.example.org" is given twice: ${splitA} and ${splitB}`,
    },
    SameFileTwice: {
      reason: '-f A -f A',
      argv: ['sync', '-f', good, '-f', good],
      error: `CompositeResourceDefinition "xbuckets.example.org" is given twice: ${good} is read by -f ${JSON.stringify(good)} (argument 1 of 2) and again by -f ${JSON.stringify(good)} (argument 2 of 2)`,
      hint: 'give each file once: a directory given with -f includes every file under it',
    },
    SameFileThroughItsDirectory: {
      reason: 'a file given alone and in its directory: both places read the same, the -f arguments differ',
      argv: ['sync', '-f', join(dir, 'alone'), '-f', alone],
      error: `CompositeResourceDefinition "xbuckets.example.org" is given twice: ${alone} is read by -f ${JSON.stringify(join(dir, 'alone'))} (argument 1 of 2) and again by -f ${JSON.stringify(alone)} (argument 2 of 2)`,
    },

    // ---- names that would end up in rules ----
    XrdGroupAndPluralStar: {
      reason: 'group "*" and plural "*" made sync grant * on everything, aggregated into crossplane-edit',
      argv: syncText('xrd-star.yaml', xrdYaml('x', '  group: "*"\n  names:\n    kind: X\n    plural: "*"\n')),
      error: `${dir}/xrd-star.yaml: CompositeResourceDefinition "x": spec.group "*" is not a valid API group: only lower-case letters, digits, "-" and ".", starting and ending with a letter or digit`,
      hint: 'fix or remove the object (Kubernetes itself would refuse it); nothing was rendered or written',
    },
    XrdPluralStar: {
      reason: 'a good group with plural "*" grants every resource of the group',
      argv: syncText(
        'xrd-plural.yaml',
        xrdYaml('x.example.org', '  group: example.org\n  names:\n    kind: X\n    plural: "*"\n'),
      ),
      error: `${dir}/xrd-plural.yaml: CompositeResourceDefinition "x.example.org": spec.names.plural "*" is not a valid resource name: only lower-case letters, digits and "-", starting with a letter and ending with a letter or digit`,
    },
    XrdGroupEmpty: {
      reason: 'an empty group is the core API group',
      argv: syncText('xrd-empty.yaml', xrdYaml('x', '  group: ""\n  names:\n    kind: X\n    plural: xs\n')),
      error: `${dir}/xrd-empty.yaml: CompositeResourceDefinition "x": spec.group "" is not a valid API group: it is empty`,
    },
    XrdGroupWithoutDot: {
      reason: 'a custom group is a domain (and "apps" is a built-in group)',
      argv: syncText(
        'xrd-apps.yaml',
        xrdYaml('xs.apps', '  group: apps\n  names:\n    kind: X\n    plural: xs\n'),
      ),
      error: `${dir}/xrd-apps.yaml: CompositeResourceDefinition "xs.apps": spec.group "apps" is not a valid API group: a custom API group is a domain with at least one dot (e.g. example.org)`,
    },
    XrdGroupUpperCase: {
      reason: 'API groups are lower case',
      argv: syncText(
        'xrd-upper.yaml',
        xrdYaml('xs.Example.org', '  group: Example.org\n  names:\n    kind: X\n    plural: xs\n'),
      ),
      error: `${dir}/xrd-upper.yaml: CompositeResourceDefinition "xs.Example.org": spec.group "Example.org" is not a valid API group: only lower-case letters, digits, "-" and ".", starting and ending with a letter or digit`,
    },
    XrdGroupTooLong: {
      reason: 'a DNS subdomain is at most 253 characters',
      argv: syncText(
        'xrd-long.yaml',
        xrdYaml('x', `  group: ${'a'.repeat(250)}.org\n  names:\n    kind: X\n    plural: xs\n`),
      ),
      error: `${dir}/xrd-long.yaml: CompositeResourceDefinition "x": spec.group "${'a'.repeat(250)}.org" is not a valid API group: it is longer than 253 characters`,
    },
    XrdPluralWithSlash: {
      reason: 'a plural with "/" would name a subresource of something else',
      argv: syncText(
        'xrd-slash.yaml',
        xrdYaml('x', '  group: example.org\n  names:\n    kind: X\n    plural: secrets/x\n'),
      ),
      error: `${dir}/xrd-slash.yaml: CompositeResourceDefinition "x": spec.names.plural "secrets/x" is not a valid resource name: only lower-case letters, digits and "-", starting with a letter and ending with a letter or digit`,
    },
    XrdPluralStartsWithDigit: {
      reason: 'Kubernetes validates a plural as a DNS-1035 label',
      argv: syncText(
        'xrd-digit.yaml',
        xrdYaml('x', '  group: example.org\n  names:\n    kind: X\n    plural: 3xs\n'),
      ),
      error: `${dir}/xrd-digit.yaml: CompositeResourceDefinition "x": spec.names.plural "3xs" is not a valid resource name: only lower-case letters, digits and "-", starting with a letter and ending with a letter or digit`,
    },
    XrdClaimPluralStar: {
      reason: 'claim names end up in rules too',
      argv: syncText(
        'xrd-claim.yaml',
        xrdYaml(
          'xs.example.org',
          `${GOOD_SPEC.replace('xbuckets', 'xs')}  claimNames:\n    kind: C\n    plural: "*"\n`,
        ),
      ),
      error: `${dir}/xrd-claim.yaml: CompositeResourceDefinition "xs.example.org": spec.claimNames.plural "*" is not a valid resource name: only lower-case letters, digits and "-", starting with a letter and ending with a letter or digit`,
    },
    XrdClaimNamesWithoutPlural: {
      reason: 'claimNames without a plural',
      argv: syncText(
        'xrd-claim2.yaml',
        xrdYaml('xs.example.org', `${GOOD_SPEC.replace('xbuckets', 'xs')}  claimNames:\n    kind: C\n`),
      ),
      error: `${dir}/xrd-claim2.yaml: CompositeResourceDefinition "xs.example.org": spec.claimNames.plural is required`,
    },
    XrdPluralIsANumber: {
      reason: 'a number where a name is expected',
      argv: syncText(
        'xrd-num.yaml',
        xrdYaml('x', '  group: example.org\n  names:\n    kind: X\n    plural: 3\n'),
      ),
      error: `${dir}/xrd-num.yaml: CompositeResourceDefinition "x": spec.names.plural must be a string, found a number`,
    },
    XrdWithoutSpec: {
      reason: 'an XRD without spec',
      argv: syncText(
        'xrd-nospec.yaml',
        `apiVersion: ${XRD_API}\nkind: CompositeResourceDefinition\nmetadata: {name: x}\n`,
      ),
      error: `${dir}/xrd-nospec.yaml: CompositeResourceDefinition "x": spec is required`,
    },
    XrdWithoutNames: {
      reason: 'an XRD without spec.names',
      argv: syncText('xrd-nonames.yaml', xrdYaml('x', '  group: example.org\n')),
      error: `${dir}/xrd-nonames.yaml: CompositeResourceDefinition "x": spec.names is required`,
    },
    XrdVersionsNotAList: {
      reason: 'versions as a mapping',
      argv: syncText(
        'xrd-versions.yaml',
        xrdYaml('xbuckets.example.org', `${GOOD_SPEC}  versions: {name: v1}\n`),
      ),
      error: `${dir}/xrd-versions.yaml: CompositeResourceDefinition "xbuckets.example.org": spec.versions must be a list, found a mapping`,
    },
    XrdInEnableXrd: {
      reason: 'enable-xrd reads XRDs through the same checks',
      argv: [
        'enable-xrd',
        'x',
        '-n',
        'team-a',
        '-f',
        file('enable.yaml', xrdYaml('x', '  group: "*"\n  names:\n    kind: X\n    plural: "*"\n')),
      ],
      error: `${dir}/enable.yaml: CompositeResourceDefinition "x": spec.group "*" is not a valid API group: only lower-case letters, digits, "-" and ".", starting and ending with a letter or digit`,
    },
    RevisionObjectRefStarStar: {
      reason: 'objectRefs naming "*.*" made sync grant * on everything offline',
      argv: syncText('pr-star.yaml', prYaml(crdRef('*.*'))),
      error: `${dir}/pr-star.yaml: ProviderRevision "provider-x-1": status.objectRefs[0].name "*.*" is not a valid CustomResourceDefinition name (<plural>.<group>): plural "*": only lower-case letters, digits and "-", starting with a letter and ending with a letter or digit`,
    },
    RevisionObjectRefGroupStar: {
      reason: 'a good plural in every group',
      argv: syncText('pr-group.yaml', prYaml(crdRef('buckets.example.org') + crdRef('secrets.*'))),
      error: `${dir}/pr-group.yaml: ProviderRevision "provider-x-1": status.objectRefs[1].name "secrets.*" is not a valid CustomResourceDefinition name (<plural>.<group>): group "*": only lower-case letters, digits, "-" and ".", starting and ending with a letter or digit`,
    },
    RevisionObjectRefEmptyPlural: {
      reason: 'an empty plural',
      argv: syncText('pr-empty.yaml', prYaml(crdRef('.example.org'))),
      error: `${dir}/pr-empty.yaml: ProviderRevision "provider-x-1": status.objectRefs[0].name ".example.org" is not a valid CustomResourceDefinition name (<plural>.<group>): plural "": it is empty`,
    },
    RevisionObjectRefEmptyGroup: {
      reason: 'a trailing dot leaves the core group',
      argv: syncText('pr-core.yaml', prYaml(crdRef('secrets.'))),
      error: `${dir}/pr-core.yaml: ProviderRevision "provider-x-1": status.objectRefs[0].name "secrets." is not a valid CustomResourceDefinition name (<plural>.<group>): group "": it is empty`,
    },
    RevisionMrdRefStar: {
      reason: 'ManagedResourceDefinition refs define resources too',
      argv: syncText(
        'pr-mrd.yaml',
        prYaml(
          '    - apiVersion: apiextensions.crossplane.io/v1alpha1\n      kind: ManagedResourceDefinition\n      name: "*.aws.upbound.io"\n',
        ),
      ),
      error: `${dir}/pr-mrd.yaml: ProviderRevision "provider-x-1": status.objectRefs[0].name "*.aws.upbound.io" is not a valid ManagedResourceDefinition name (<plural>.<group>): plural "*": only lower-case letters, digits and "-", starting with a letter and ending with a letter or digit`,
    },
    RevisionObjectRefsNotAList: {
      reason: 'objectRefs as a mapping',
      argv: syncText(
        'pr-refs.yaml',
        prYaml('    a: b\n').replace('objectRefs:\n    a: b', 'objectRefs: {a: b}'),
      ),
      error: `${dir}/pr-refs.yaml: ProviderRevision "provider-x-1": status.objectRefs must be a list, found a mapping`,
    },
    RevisionObjectRefWithoutName: {
      reason: 'a ref without a name',
      argv: syncText(
        'pr-noname.yaml',
        prYaml('    - apiVersion: apiextensions.k8s.io/v1\n      kind: CustomResourceDefinition\n'),
      ),
      error: `${dir}/pr-noname.yaml: ProviderRevision "provider-x-1": status.objectRefs[0].name is required`,
    },
    RevisionPermissionRequestVerbsNotAList: {
      reason:
        'a permission request whose verbs are a string: Crossplane v1 would append it to the role verbatim, so it is checked as any rule (it used to fail the whole run, not only this revision)',
      argv: syncText(
        'pr-perm.yaml',
        prYaml(crdRef('buckets.example.org')).replace(
          'status:\n',
          'status:\n  permissionRequests:\n    - apiGroups: [""]\n      resources: [secrets]\n      verbs: get\n',
        ),
      ),
      error: `${dir}/pr-perm.yaml: ProviderRevision "provider-x-1": status.permissionRequests[0].verbs must be a list, found a string`,
    },
    RevisionCapabilitiesNotAList: {
      reason: 'capabilities as a string',
      argv: syncText(
        'pr-caps.yaml',
        prYaml(crdRef('buckets.example.org')).replace('status:\n', 'status:\n  capabilities: safe-start\n'),
      ),
      error: `${dir}/pr-caps.yaml: ProviderRevision "provider-x-1": status.capabilities must be a list, found a string`,
    },
    RevisionImageIsAList: {
      reason: 'an image that is not a string',
      argv: syncText(
        'pr-image.yaml',
        prYaml(crdRef('buckets.example.org')).replace(
          '  image: xpkg.upbound.io/x/provider-x:v1\n',
          '  image: [a]\n',
        ),
      ),
      error: `${dir}/pr-image.yaml: ProviderRevision "provider-x-1": spec.image must be a string, found a list`,
    },

    // ---- fields of the wrong type (these crashed with "e.map is not a function" and the like) ----
    LabelsIsANumber: {
      reason: 'labels must be a mapping',
      argv: syncText(
        'labels.yaml',
        xrdYaml('xbuckets.example.org', GOOD_SPEC).replace(
          '  name: xbuckets.example.org\n',
          '  name: xbuckets.example.org\n  labels: 5\n',
        ),
      ),
      error: `${dir}/labels.yaml: CompositeResourceDefinition "xbuckets.example.org": metadata.labels must be a mapping, found a number`,
    },
    LabelValueIsANumber: {
      reason: 'label values are strings in Kubernetes',
      argv: syncText(
        'label-value.yaml',
        'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-x\n  labels:\n    tier: 1\n',
      ),
      error: `${dir}/label-value.yaml: Namespace "team-x": metadata.labels.tier must be a string, found a number`,
    },
    AnnotationsIsAList: {
      reason: 'annotations must be a mapping',
      argv: syncText(
        'annotations.yaml',
        'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-x\n  annotations: [a]\n',
      ),
      error: `${dir}/annotations.yaml: Namespace "team-x": metadata.annotations must be a mapping, found a list`,
    },
    AnnotationValueIsABoolean: {
      reason: 'an unquoted true in an annotation',
      argv: syncText(
        'annotation-value.yaml',
        'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-x\n  annotations:\n    rbac.crossplane.io/xbuckets.example.org: true\n',
      ),
      error: `${dir}/annotation-value.yaml: Namespace "team-x": metadata.annotations["rbac.crossplane.io/xbuckets.example.org"] must be a string, found a boolean`,
    },
    NamespaceNameInvalid: {
      reason: 'namespace names end up in role names and label keys',
      argv: syncText('ns-name.yaml', 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: Team_A\n'),
      error: `${dir}/ns-name.yaml: Namespace "Team_A": metadata.name "Team_A" is not a valid namespace name: only lower-case letters, digits and "-", starting and ending with a letter or digit`,
    },
    OwnerReferencesIsAMapping: {
      reason: 'ownerReferences must be a list',
      argv: syncText(
        'owners.yaml',
        'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\n  namespace: x\n  ownerReferences: {kind: ProviderRevision}\n',
      ),
      error: `${dir}/owners.yaml: Deployment "x/d": metadata.ownerReferences must be a list, found a mapping`,
    },
    OwnerReferenceWithoutName: {
      reason: 'an owner reference names its owner',
      argv: syncText(
        'owner.yaml',
        'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\n  namespace: x\n  ownerReferences:\n    - kind: ProviderRevision\n      uid: u\n',
      ),
      error: `${dir}/owner.yaml: Deployment "x/d": metadata.ownerReferences[0].name is required`,
    },
    ContainersIsAMapping: {
      reason: 'containers must be a list',
      argv: syncText(
        'containers.yaml',
        'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d, namespace: x}\nspec:\n  template:\n    spec:\n      containers: {name: c}\n',
      ),
      error: `${dir}/containers.yaml: Deployment "x/d": spec.template.spec.containers must be a list, found a mapping`,
    },
    ServiceAccountNameIsANumber: {
      reason: 'a subject name from a Deployment',
      argv: syncText(
        'sa.yaml',
        'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d, namespace: x}\nspec:\n  template:\n    spec:\n      serviceAccountName: 7\n',
      ),
      error: `${dir}/sa.yaml: Deployment "x/d": spec.template.spec.serviceAccountName must be a string, found a number`,
    },
    RulesIsAString: {
      reason: 'rules must be a list',
      argv: ['explain', 'r', '-f', file('rules.yaml', clusterRoleYaml('r', 'rules: "*"\n'))],
      error: `${dir}/rules.yaml: ClusterRole "r": rules must be a list, found a string`,
    },
    VerbsIsAString: {
      reason: 'verbs: "*" instead of ["*"]',
      argv: [
        'explain',
        'r',
        '-f',
        file(
          'verbs.yaml',
          clusterRoleYaml('r', 'rules:\n  - apiGroups: [""]\n    resources: [pods]\n    verbs: "*"\n'),
        ),
      ],
      error: `${dir}/verbs.yaml: ClusterRole "r": rules[0].verbs must be a list, found a string`,
    },
    RuleWithoutVerbs: {
      reason: 'a rule without verbs',
      argv: syncText(
        'noverbs.yaml',
        clusterRoleYaml('r', 'rules:\n  - apiGroups: [""]\n    resources: [pods]\n'),
      ),
      error: `${dir}/noverbs.yaml: ClusterRole "r": rules[0].verbs is required`,
    },
    ApiGroupIsANumber: {
      reason: 'an unquoted number in apiGroups',
      argv: syncText(
        'group.yaml',
        clusterRoleYaml('r', 'rules:\n  - apiGroups: [1]\n    resources: [pods]\n    verbs: [get]\n'),
      ),
      error: `${dir}/group.yaml: ClusterRole "r": rules[0].apiGroups[0] must be a string, found a number`,
    },
    NullRule: {
      reason: 'a null entry in a list',
      argv: syncText('nullrule.yaml', clusterRoleYaml('r', 'rules:\n  -\n')),
      error: `${dir}/nullrule.yaml: ClusterRole "r": rules[0] must be a mapping, found null`,
    },
    SelectorsIsAString: {
      reason: 'clusterRoleSelectors must be a list',
      argv: [
        'explain',
        'r',
        '-f',
        file('selectors.yaml', clusterRoleYaml('r', 'aggregationRule:\n  clusterRoleSelectors: all\n')),
      ],
      error: `${dir}/selectors.yaml: ClusterRole "r": aggregationRule.clusterRoleSelectors must be a list, found a string`,
    },
    MatchLabelValueIsABoolean: {
      reason: 'an unquoted true in matchLabels',
      argv: [
        'explain',
        'r',
        '-f',
        file(
          'matchlabels.yaml',
          clusterRoleYaml(
            'r',
            'aggregationRule:\n  clusterRoleSelectors:\n    - matchLabels:\n        rbac.example.org/aggregate: true\n',
          ),
        ),
      ],
      error: `${dir}/matchlabels.yaml: ClusterRole "r": aggregationRule.clusterRoleSelectors[0].matchLabels["rbac.example.org/aggregate"] must be a string, found a boolean`,
    },
    MatchExpressionWithoutOperator: {
      reason: 'a requirement without an operator',
      argv: [
        'explain',
        'r',
        '-f',
        file(
          'matchexpr.yaml',
          clusterRoleYaml(
            'r',
            'aggregationRule:\n  clusterRoleSelectors:\n    - matchExpressions:\n        - key: a\n',
          ),
        ),
      ],
      error: `${dir}/matchexpr.yaml: ClusterRole "r": aggregationRule.clusterRoleSelectors[0].matchExpressions[0].operator is required`,
    },
    BindingWithoutRoleRef: {
      reason: 'a binding without roleRef',
      argv: [
        'explain',
        'admin',
        '-f',
        file(
          'norolref.yaml',
          `apiVersion: ${RBAC}\nkind: ClusterRoleBinding\nmetadata: {name: b}\nsubjects: []\n`,
        ),
      ],
      error: `${dir}/norolref.yaml: ClusterRoleBinding "b": roleRef is required`,
    },
    SubjectsIsAMapping: {
      reason: 'subjects must be a list',
      argv: [
        'explain',
        'admin',
        '-f',
        file(
          'subjects.yaml',
          `apiVersion: ${RBAC}\nkind: RoleBinding\nmetadata: {name: b, namespace: x}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}\nsubjects: {kind: User, name: jane}\n`,
        ),
      ],
      error: `${dir}/subjects.yaml: RoleBinding "x/b": subjects must be a list, found a mapping`,
    },
    SubjectWithoutName: {
      reason: 'a subject without a name',
      argv: [
        'explain',
        'admin',
        '-f',
        file(
          'subject.yaml',
          `apiVersion: ${RBAC}\nkind: ClusterRoleBinding\nmetadata: {name: b}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}\nsubjects:\n  - kind: User\n`,
        ),
      ],
      error: `${dir}/subject.yaml: ClusterRoleBinding "b": subjects[0].name is required`,
    },
    ConfigMapDataValueIsANumber: {
      reason: 'the crossplane-rbac ConfigMap with an unquoted value',
      argv: syncText(
        'cm.yaml',
        'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: crossplane-rbac, namespace: crossplane-system}\ndata:\n  disableBaseRoles: 1\n',
      ),
      error: `${dir}/cm.yaml: ConfigMap "crossplane-system/crossplane-rbac": data.disableBaseRoles must be a string, found a number`,
    },
    RoleRulesIsAMapping: {
      reason: 'a Role read by bind',
      argv: bindText(
        'role.yaml',
        `apiVersion: ${RBAC}\nkind: Role\nmetadata: {name: deployer, namespace: team-a}\nrules: {verbs: [get]}\n`,
        'Role/deployer@team-a',
      ),
      error: `${dir}/role.yaml: Role "team-a/deployer": rules must be a list, found a mapping`,
    },

    // ---- privileged roles for bind ----
    BindClusterAdmin: {
      reason: 'binding cluster-admin exited 0 silently',
      argv: [
        'bind',
        '--service-account',
        'flux-system/kustomize-controller',
        '--role-ref',
        'ClusterRole/cluster-admin',
        '--yes',
        '-f',
        exampleCluster,
      ],
      error:
        'refusing to bind a privileged role without --allow-privileged, nothing was written: ClusterRole/cluster-admin grants * on * in every API group',
      hint: 'bind a narrower role, or pass --allow-privileged if the account is meant to hold exactly that',
    },
    BindClusterAdminNotInInput: {
      reason:
        "cluster-admin is judged by Kubernetes' bootstrap rules when the input does not hold it (* on * in every group), as the live run judges it",
      argv: ['bind', '--service-account', 'a/b', '--role-ref', 'ClusterRole/cluster-admin', '-f', good],
      error:
        'refusing to bind a privileged role without --allow-privileged, nothing was written: ClusterRole/cluster-admin grants * on * in every API group',
    },
    BindEscalate: {
      reason: 'escalate lets the holder write roles beyond its own rules',
      argv: bindText(
        'escalate.yaml',
        clusterRoleYaml(
          'foo',
          'rules:\n  - apiGroups: [rbac.authorization.k8s.io]\n    resources: [clusterroles]\n    verbs: [get, escalate]\n',
        ),
        'ClusterRole/foo',
      ),
      error:
        'refusing to bind a privileged role without --allow-privileged, nothing was written: ClusterRole/foo grants escalate on clusterroles.rbac.authorization.k8s.io',
    },
    BindBind: {
      reason: 'bind lets the holder bind roles it does not hold',
      argv: bindText(
        'bindverb.yaml',
        clusterRoleYaml(
          'foo',
          'rules:\n  - apiGroups: [rbac.authorization.k8s.io]\n    resources: [clusterroles]\n    resourceNames: [admin]\n    verbs: [bind]\n',
        ),
        'ClusterRole/foo',
      ),
      error:
        'refusing to bind a privileged role without --allow-privileged, nothing was written: ClusterRole/foo grants bind on clusterroles.rbac.authorization.k8s.io (names: admin)',
    },
    BindImpersonate: {
      reason: 'impersonate lets the holder act as someone else',
      argv: bindText(
        'impersonate.yaml',
        clusterRoleYaml(
          'foo',
          'rules:\n  - apiGroups: [""]\n    resources: [users, groups]\n    verbs: [impersonate]\n',
        ),
        'ClusterRole/foo',
      ),
      error:
        'refusing to bind a privileged role without --allow-privileged, nothing was written: ClusterRole/foo grants impersonate on users, groups',
    },
    BindStarOnStar: {
      reason: 'a cluster-admin look-alike under another name',
      argv: bindText(
        'starstar.yaml',
        clusterRoleYaml(
          'almost-admin',
          'rules:\n  - apiGroups: ["*"]\n    resources: ["*"]\n    verbs: ["*"]\n',
        ),
        'ClusterRole/almost-admin',
      ),
      error:
        'refusing to bind a privileged role without --allow-privileged, nothing was written: ClusterRole/almost-admin grants * on * in every API group',
    },
    BindStarVerbOnRoles: {
      reason: 'a * verb on clusterroles includes escalate and bind',
      argv: bindText(
        'starroles.yaml',
        clusterRoleYaml(
          'foo',
          'rules:\n  - apiGroups: [rbac.authorization.k8s.io]\n    resources: [clusterroles, clusterrolebindings]\n    verbs: ["*"]\n',
        ),
        'ClusterRole/foo',
      ),
      error:
        'refusing to bind a privileged role without --allow-privileged, nothing was written: ClusterRole/foo grants * (which includes escalate and bind) on clusterroles.rbac.authorization.k8s.io',
    },
    BindStarVerbOnServiceAccounts: {
      reason: 'a * verb on serviceaccounts includes impersonate',
      argv: bindText(
        'starsa.yaml',
        clusterRoleYaml(
          'foo',
          'rules:\n  - apiGroups: [""]\n    resources: [serviceaccounts]\n    verbs: ["*"]\n',
        ),
        'ClusterRole/foo',
      ),
      error:
        'refusing to bind a privileged role without --allow-privileged, nothing was written: ClusterRole/foo grants * (which includes impersonate) on serviceaccounts',
    },
    BindNonResourceStar: {
      reason: 'every non-resource URL',
      argv: bindText(
        'urls.yaml',
        clusterRoleYaml('foo', 'rules:\n  - nonResourceURLs: ["*"]\n    verbs: [get]\n'),
        'ClusterRole/foo',
      ),
      error:
        'refusing to bind a privileged role without --allow-privileged, nothing was written: ClusterRole/foo grants get on every non-resource URL (*)',
    },
    BindTokenRequest: {
      reason: 'minting service account tokens is impersonation',
      argv: bindText(
        'token.yaml',
        clusterRoleYaml(
          'foo',
          'rules:\n  - apiGroups: [""]\n    resources: [serviceaccounts/token]\n    verbs: [create]\n',
        ),
        'ClusterRole/foo',
      ),
      error:
        'refusing to bind a privileged role without --allow-privileged, nothing was written: ClusterRole/foo grants create on serviceaccounts/token (mints tokens for service accounts)',
    },
    BindAggregatedRoleWhoseControllerLags: {
      reason: 'an aggregated role that stores no rules yet but selects a role with escalate',
      argv: bindText(
        'aggregated.yaml',
        `${clusterRoleYaml('team-edit', 'aggregationRule:\n  clusterRoleSelectors:\n    - matchLabels: {example.org/aggregate-to-team-edit: "true"}\nrules: []\n')}---\n${clusterRoleYaml('sneaky', 'rules:\n  - apiGroups: ["*"]\n    resources: [roles]\n    verbs: [escalate]\n').replace('  name: sneaky\n', '  name: sneaky\n  labels: {example.org/aggregate-to-team-edit: "true"}\n')}`,
        'ClusterRole/team-edit',
      ),
      error:
        'refusing to bind a privileged role without --allow-privileged, nothing was written: ClusterRole/team-edit grants escalate on roles (in every API group)',
    },
    BindPrivilegedRoleInANamespace: {
      reason: 'a namespaced Role with bind',
      argv: bindText(
        'nsrole.yaml',
        `apiVersion: ${RBAC}\nkind: Role\nmetadata: {name: deployer, namespace: team-a}\nrules:\n  - apiGroups: [rbac.authorization.k8s.io]\n    resources: [roles]\n    verbs: [bind]\n`,
        'Role/deployer@team-a',
      ),
      error:
        'refusing to bind a privileged role without --allow-privileged, nothing was written: Role/team-a/deployer grants bind on roles.rbac.authorization.k8s.io',
    },
    BindExampleRootSyncWithEdit: {
      reason:
        "Kubernetes' edit grants impersonate on serviceaccounts: the example RootSync binds it in team-a",
      argv: ['bind', '--root-sync', 'root-sync', '-f', exampleCluster, '-o', 'yaml'],
      error:
        'refusing to bind a privileged role without --allow-privileged, nothing was written: ClusterRole/edit (in namespace team-a) grants impersonate on serviceaccounts',
    },

    // ---- explain ROLE and explain --subject: each mode's own flags and -o, checked before anything is read ----
    ExplainRoleMissing: {
      reason: 'no mode named: neither a ClusterRole nor --subject',
      argv: ['explain', '-f', good],
      error: 'explain needs a ClusterRole, or --subject KIND:NAME',
      hint: 'e.g. explain crossplane-edit, or explain --subject Group:team-a-devs -n team-a',
    },
    ExplainRoleWithGroup: {
      reason: "--group is the subject's: a role has no groups",
      argv: ['explain', 'admin', '--group', 'team-a', '-f', good],
      error: '--group needs --subject',
    },
    ExplainRoleConverged: {
      reason: "explain ROLE always shows the converged rules: --converged is the subject mode's",
      argv: ['explain', 'admin', '--converged', '-f', good],
      error: '--converged needs --subject',
      hint: 'explain ROLE always shows the rules the aggregation controller converges to, and which are stored',
    },
    ExplainRoleHtmlOutput: {
      reason: 'the role mode draws dot and mermaid, not the subject mode html page',
      argv: ['explain', 'admin', '-o', 'html', '-f', good],
      error: 'unknown output format "html" for explain',
      hint: 'use one of: tree, table, wide, yaml, json, dot, mermaid',
    },
    ExplainRoleVerbWithoutFor: {
      reason: '--verb asks about RESOURCE, which --for names',
      argv: ['explain', 'admin', '--verb', 'get', '-f', good],
      error: '--verb needs --for RESOURCE',
    },
    ExplainSubjectTreeOutput: {
      reason: "the subject mode has no aggregation tree (the role mode's default)",
      argv: ['explain', '--subject', 'User:jane', '-o', 'tree', '-f', good],
      error: 'unknown output format "tree" for explain --subject',
      hint: 'use one of: text, wide, yaml, json, dot, mermaid, html',
    },
    SyncWatchUnknownOutput: {
      reason: "a format no command knows gets -o's standard line, as every other command words it",
      argv: ['sync', '--watch', '-o', 'bogus'],
      error: 'unknown output format "bogus" for sync --watch',
      hint: 'use one of: json (without -o, one line per reconcile)',
    },
    PrintRequiredRoleWide: {
      reason:
        "a ClusterRole printed for kubectl apply has kubectl's formats of one object (yaml, json, name), not a table",
      argv: ['lookup', '--print-required-role', '-o', 'wide'],
      error: 'unknown output format "wide" for lookup --print-required-role',
      hint: 'use one of: yaml, json, name',
    },
    CompletionOutputFlag: {
      reason:
        "completion prints a script in no format: -o is an unknown flag, as kubectl's completion refuses it",
      argv: ['completion', 'bash', '-o', 'x'],
      error: "unknown shorthand flag: 'o' in -o",
      hint: 'see: kubectl crossplane-rbac completion --help',
    },
    ExplainSubjectWithRole: {
      reason: 'a ClusterRole and a subject at once',
      argv: ['explain', 'admin', '--subject', 'User:jane', '-f', good],
      error: 'explain takes a ClusterRole or --subject, not both',
    },
    ExplainSubjectForWithoutVerb: {
      reason: 'a request is a verb on a resource',
      argv: ['explain', '--subject', 'User:jane', '--for', 'pods', '-f', good],
      error: '--for needs --verb',
    },
    ExplainMatrixOnlyWithoutAfterSync: {
      reason: '--only is a shared flag, checked once for every mode: without --after-sync it means nothing',
      argv: ['explain', '--subject', 'User:jane', '--matrix', '--only', 'base', '-f', good],
      error: '--only needs --after-sync',
    },

    // ---- explain --subject --matrix: its flags, checked before anything is read ----
    MatrixWithoutSubject: {
      reason: 'the matrix is the access of one subject',
      argv: ['explain', '--matrix', '-f', good],
      error: '--matrix needs --subject KIND:NAME',
      hint: 'e.g. explain --subject ServiceAccount:crossplane-system/crossplane --matrix',
    },
    MatrixWithRole: {
      reason: 'a ClusterRole and a subject at once',
      argv: ['explain', 'admin', '--subject', 'User:jane', '--matrix', '-f', good],
      error: 'explain takes a ClusterRole or --subject, not both',
    },
    MatrixWithFor: {
      reason: 'the matrix answers every resource: --for would be silently ignored',
      argv: ['explain', '--subject', 'User:jane', '--matrix', '--for', 'pods', '--verb', 'get', '-f', good],
      error: '--matrix answers every resource and verb: drop --for',
    },
    MatrixConverged: {
      reason: 'the matrix marks the cells only rules not stored yet allow: it takes no view flag',
      argv: ['explain', '--subject', 'User:jane', '--matrix', '--converged', '-f', good],
      error: '--matrix shows both views: drop --converged',
      hint: 'a cell that only rules the aggregation controller has not stored yet allow is marked',
    },
    MatrixAllWithoutMatrix: {
      reason: 'a forgotten --matrix: --all means nothing to explain --subject',
      argv: ['explain', '--subject', 'User:jane', '--all', '-f', good],
      error: '--all needs --matrix',
    },
    MatrixDiffWithWithoutMatrix: {
      reason: 'a forgotten --matrix: --diff-with means nothing to explain ROLE',
      argv: ['explain', 'admin', '--diff-with', 'User:bob', '-f', good],
      error: '--diff-with needs --matrix',
    },
    MatrixDiffWithNotASubject: {
      reason: 'the second subject is checked as the first is, and the message names its flag',
      argv: ['explain', '--subject', 'User:jane', '--matrix', '--diff-with', 'bob', '-f', good],
      error: 'invalid --diff-with "bob"',
      hint: 'use User:NAME, Group:NAME or ServiceAccount:NAMESPACE/NAME',
    },
    MatrixSubjectNotASubject: {
      reason: 'a ServiceAccount without its namespace',
      argv: ['explain', '--subject', 'ServiceAccount:crossplane', '--matrix', '-f', good],
      error: 'invalid --subject "ServiceAccount:crossplane"',
    },
    SubjectServiceAccountBadNamespace: {
      reason: 'no ServiceAccount lives in a namespace Kubernetes refuses: no confident answer',
      argv: ['explain', '--subject', 'ServiceAccount:Bad_NS/x', '-f', good],
      error:
        'invalid --subject "ServiceAccount:Bad_NS/x": the ServiceAccount\'s namespace "Bad_NS": only lower-case letters, digits and "-", starting and ending with a letter or digit',
    },
    AuditSubjectServiceAccountBadName: {
      reason:
        'audit checks a ServiceAccount subject with the parser and the words of explain (kube/parse-subject.ts)',
      argv: ['audit', '--subject', 'ServiceAccount:team-a/' + 'x'.repeat(254), '-f', good],
      error: `invalid --subject "ServiceAccount:team-a/${'x'.repeat(254)}": the ServiceAccount's name "${'x'.repeat(254)}": it is longer than 253 characters`,
      hint: 'use User:NAME, Group:NAME or ServiceAccount:NAMESPACE/NAME',
    },
    AuditSubjectNotASubject: {
      reason: 'audit words a subject that is not KIND:NAME as explain does',
      argv: ['audit', '--subject', 'alice', '-f', good],
      error: 'invalid --subject "alice"',
      hint: 'use User:NAME, Group:NAME or ServiceAccount:NAMESPACE/NAME',
    },
    SubjectServiceAccountThreeParts: {
      reason:
        'a ServiceAccount is exactly NAMESPACE/NAME, as kubectl create rolebinding --serviceaccount a:b:c is refused',
      argv: ['explain', '--subject', 'ServiceAccount:team-a/x/y', '-f', good],
      error: 'invalid --subject "ServiceAccount:team-a/x/y"',
    },
    MatrixWideOutput: {
      reason: 'the matrix prints a table, json or yaml',
      argv: ['explain', '--subject', 'User:jane', '--matrix', '-o', 'wide', '-f', good],
      error: 'unknown output format "wide" for explain --matrix',
      hint: 'use one of: table, json, yaml',
    },
    MatrixNamespaceNotAName: {
      reason: '-n names a namespace whose RoleBindings count',
      argv: ['explain', '--subject', 'User:jane', '--matrix', '-n', 'Team_A', '-f', good],
      error:
        'invalid --namespace "Team_A": not a namespace name: only lower-case letters, digits and "-", starting and ending with a letter or digit',
    },
  };
  // sync holds an invalid XRD or ProviderRevision instead of failing: every such case is a held one.
  const owner = /^[^\n]*: (CompositeResourceDefinition|ProviderRevision) "/;
  for (const [name, tc] of Object.entries(cases)) {
    if (tc.argv[0] === 'sync' && owner.test(tc.error)) cases[name] = { ...tc, held: true };
  }
  return {
    cases,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      }),
  };
}
