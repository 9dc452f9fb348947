// The warnings the test API server sends, as kube-apiserver sends them. A deprecated CRD version's default text
// follows apiextensions-apiserver's defaultDeprecationWarning (kubernetes/kubernetes
// staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/customresource_handler.go @
// 37c19ef857a8fcb12ec2c926e784e03474996797): `GROUP/VERSION KIND is deprecated`, then `; use GROUP/V KIND` for the
// most preferred served version that is not deprecated and ranks above it, if any. A warning's header is
// apimachinery's NewWarningHeader (pkg/util/net/http.go): `299 - "TEXT"`, `"` and `\` escaped, UTF-8 bytes as they are.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourcesOfCrd } from './registry.js';
import { ADMIN_TOKEN, startApiServer, type TestApiServer } from './server.js';

const crd = (versions: object[]): object => ({
  spec: { group: 'g.example.org', names: { plural: 'things', kind: 'Thing' }, scope: 'Cluster', versions },
});

describe('a deprecated CRD version', () => {
  const cases: [string, object[], Record<string, string | undefined>][] = [
    [
      'names the most preferred newer version served and not deprecated',
      [
        { name: 'v1beta1', served: true, deprecated: true },
        { name: 'v1', served: true },
        { name: 'v2', served: true },
        { name: 'v3', served: false },
      ],
      {
        v1beta1: 'g.example.org/v1beta1 Thing is deprecated; use g.example.org/v2 Thing',
        v1: undefined,
        v2: undefined,
      },
    ],
    [
      'names none when every served version above it is deprecated or none is above it',
      [
        { name: 'v1alpha1', served: true, deprecated: true },
        { name: 'v1beta1', served: true, deprecated: true },
        { name: 'v2', served: true, deprecated: true },
        { name: 'v1', served: true },
      ],
      {
        v1alpha1: 'g.example.org/v1alpha1 Thing is deprecated; use g.example.org/v1 Thing',
        v1beta1: 'g.example.org/v1beta1 Thing is deprecated; use g.example.org/v1 Thing',
        v2: 'g.example.org/v2 Thing is deprecated',
        v1: undefined,
      },
    ],
    [
      "sends the version's own deprecationWarning when it has one",
      [
        { name: 'v1', served: true, deprecated: true, deprecationWarning: 'move to v2 by June' },
        { name: 'v2', served: true },
      ],
      { v1: 'move to v2 by June', v2: undefined },
    ],
  ];
  it.each(cases)('%s', (_name, versions, want) => {
    const got = Object.fromEntries(
      resourcesOfCrd(crd(versions)).map((r) => [r.version, r.deprecationWarning]),
    );
    expect(got).toStrictEqual(want);
  });
});

describe('admission warnings on a write', () => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await startApiServer({});
  });
  afterAll(async () => {
    await server.stop();
  });

  /** The raw Warning header lines of a create, decoded from their bytes as UTF-8. */
  function createConfigMap(name: string): Promise<string[]> {
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
    return new Promise((resolve, reject) => {
      const req = http.request(
        `${server.url}/api/v1/namespaces/default/configmaps`,
        {
          method: 'POST',
          headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            const lines: string[] = [];
            for (let i = 0; i < res.rawHeaders.length; i += 2) {
              if (res.rawHeaders[i]?.toLowerCase() === 'warning')
                lines.push(Buffer.from(res.rawHeaders[i + 1] ?? '', 'latin1').toString('utf8'));
            }
            resolve(lines);
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  it('sends each as its own 299 header, quoted as NewWarningHeader quotes, on writes of that resource only', async () => {
    server.admissionWarnings = [{ resource: 'configmaps', warnings: ['plain', 'a "q" \\ é 🐎'] }];
    expect(await createConfigMap('one')).toStrictEqual(['299 - "plain"', '299 - "a \\"q\\" \\\\ é 🐎"']);
    server.admissionWarnings = [{ resource: 'secrets', warnings: ['other'] }];
    expect(await createConfigMap('two')).toStrictEqual([]);
  });
});
