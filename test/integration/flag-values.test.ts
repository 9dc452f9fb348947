// kubectl's own flags and the plugin's namespace flag are checked before anything else, also with -f (which never
// connects): a value kubectl refuses is one `error:` line and exit code 2, a value kubectl takes is taken. Real
// kubectl is the reference for which values are good: it refuses a bad -v or --request-timeout while parsing its
// flags, before any connection (the server it is pointed at refuses connections, so a value it takes fails later,
// differently). klog's -v is strconv.ParseInt(value, 10, 32) (kubernetes/klog klog.go@2ccf744a9794ec7beaec4148324c3a0cd09b8a3d,
// Level.Set); --request-timeout is clientcmd.ParseTimeout, a whole number of seconds or a Go duration
// (kubernetes/kubernetes staging/src/k8s.io/client-go/tools/clientcmd/helpers.go@ad139a23b1563f7fbd23a28b1bdf30d9657ddbbe).
// A namespace name is what the API server takes for a Namespace (apimachinery's ValidateNamespaceName, a DNS-1123
// label): here the independent test API server judges it, through kubectl create namespace --dry-run=server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApiServer } from '../apiserver/server.js';
import { runKubectl } from '../support/kubectl.js';
import { exampleCluster, runPlugin, startSeeded } from './harness.js';

const REFUSING = 'http://127.0.0.1:1';

const errorLines = (stderr: string): string[] => stderr.split('\n').filter((l) => l.startsWith('error:'));

async function expectSameVerdict(flag: string, kubectlRefuses: boolean): Promise<void> {
  const plugin = await runPlugin(['sync', '-f', exampleCluster, flag], { env: { HOME: '/nonexistent' } });
  if (kubectlRefuses) {
    expect(plugin.code, `kubectl refuses ${flag}: ${plugin.stderr}`).toBe(2);
    expect(errorLines(plugin.stderr), flag).toHaveLength(1);
    expect(plugin.stdout).toBe('');
  } else {
    expect(plugin.code, `kubectl takes ${flag}: ${plugin.stderr}`).toBe(0);
  }
}

describe('-v', () => {
  it.each([
    'abc',
    '6',
    '-1',
    '11',
    '+3',
    '06',
    '2147483647',
    '2147483648',
    '-2147483648',
    '-2147483649',
    '1.5',
    '0x10',
    ' 6',
  ])('-v=%s: refused by the plugin exactly when kubectl refuses it', async (value) => {
    const ref = await runKubectl(['get', '--raw', '/version', '--server', REFUSING, `-v=${value}`]);
    const refused = /invalid argument .* for "-v, --v" flag/.test(ref.stderr);
    await expectSameVerdict(`-v=${value}`, refused);
  });
});

describe('--request-timeout', () => {
  it.each([
    'banana',
    '0',
    '5',
    '+5',
    '-0',
    '-5',
    '1.5',
    '0.5',
    '5s',
    '-1s',
    '+1s',
    '1.5h',
    '1h30m',
    '.5s',
    '5.s',
    '12µs',
    '10ns',
    '1d',
    '1e3',
    '5S',
    ' 5s',
    '1h 2m',
    '-',
    '.',
    '9223372036854775807',
    '9223372036854775808',
    '3000000h',
  ])('--request-timeout=%s: refused by the plugin exactly when kubectl refuses it', async (value) => {
    const ref = await runKubectl([
      'get',
      '--raw',
      '/version',
      '--server',
      REFUSING,
      `--request-timeout=${value}`,
    ]);
    const refused = /Invalid timeout value/.test(ref.stderr);
    await expectSameVerdict(`--request-timeout=${value}`, refused);
  });
});

describe('--crossplane-namespace', () => {
  let server: TestApiServer;
  let kubeconfig: string;
  beforeAll(async () => {
    ({ server, kubeconfig } = await startSeeded());
  });
  afterAll(async () => {
    await server.stop();
  });

  it.each(['BAD_NS', 'x.y', 'bad-', 'a'.repeat(64), 'a'.repeat(63), 'crossplane-system', 'team-a1'])(
    '--crossplane-namespace %s: refused exactly when the API server would refuse a Namespace of that name',
    async (name) => {
      const ref = await runKubectl([
        'create',
        'namespace',
        name,
        '--dry-run=server',
        '--kubeconfig',
        kubeconfig,
      ]);
      const refused = / is invalid: metadata\.name: Invalid value/.test(ref.stderr);
      await expectSameVerdict(`--crossplane-namespace=${name}`, refused);
    },
  );
});
