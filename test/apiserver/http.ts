/** Reading request bodies and writing answers. */
import type http from 'node:http';
import { gzipSync } from 'node:zlib';
import YAML from 'yaml';
import { groupVersion, apiVersionGroup } from './objects.js';
import { ProtobufError, decodeProtobufObject } from './protobuf.js';
import type { ResourceInfo } from './registry.js';
import { ApiError, badRequest, internalError } from './status.js';
import type { Obj } from './types.js';

export function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve();
}

export function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      resolve(Buffer.concat(chunks));
    });
    req.on('error', reject);
  });
}

export function parseJson(body: Buffer): Obj {
  const text = body.toString('utf8');
  if (text.trim() === '') throw badRequest('request body must not be empty');
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw badRequest(`json parse error: ${(e as Error).message}`);
  }
  if (typeof v !== 'object' || v === null)
    throw badRequest(`json: cannot unmarshal ${typeof v} into Go value of type struct`);
  return v;
}

export function decodeProtobuf(body: Buffer): Obj {
  try {
    return decodeProtobufObject(body);
  } catch (e) {
    if (e instanceof ProtobufError) throw new ApiError(415, 'UnsupportedMediaType', e.message);
    throw e;
  }
}

// kube-apiserver compresses an answer when the client sent the token `gzip` in Accept-Encoding (no q-values: any
// token that is exactly "gzip" after trimming) and the body is over 128 KiB, at gzip level 1, with Content-Encoding
// and Vary headers (k8s.io/apiserver pkg/endpoints/handlers/responsewriters: compression.go ContentEncodingSupported,
// kubernetes/kubernetes@9d2a8fb; writers.go deferredResponseWriter, defaultGzipThresholdBytes, @2876d1a). Every
// large LIST a real cluster sends to kubectl or the plugin (both ask for gzip) comes compressed.
const GZIP_THRESHOLD_BYTES = 128 * 1024;
const GZIP_LEVEL = 1;

export function acceptsGzip(req: http.IncomingMessage): boolean {
  const header = req.headers['accept-encoding'] ?? '';
  return header.split(',').some((t) => t.trim() === 'gzip');
}

export function sendJson(
  res: http.ServerResponse,
  code: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  // Encoded once: a string would be measured for Content-Length, then encoded again to be written.
  const bytes = Buffer.from(JSON.stringify(body));
  if (bytes.length > GZIP_THRESHOLD_BYTES && acceptsGzip(res.req)) {
    // As kube-apiserver, streamed (no Content-Length).
    res.writeHead(code, {
      'Content-Type': 'application/json',
      'Content-Encoding': 'gzip',
      Vary: 'Accept-Encoding',
      ...headers,
    });
    res.end(gzipSync(bytes, { level: GZIP_LEVEL }));
    return;
  }
  res.writeHead(code, {
    'Content-Type': 'application/json',
    'Content-Length': bytes.length,
    ...headers,
  });
  res.end(bytes);
}

/** Answers with the error as a Status (any other error becomes a 500). */
export function sendError(res: http.ServerResponse, err: unknown): void {
  const e = err instanceof ApiError ? err : internalError(err instanceof Error ? err.message : String(err));
  if (res.headersSent) {
    res.end();
    return;
  }
  sendJson(res, e.code, e.body(), e.headers);
}

/** A request body as an object of the resource's kind (JSON, YAML or Kubernetes protobuf). */
export function decodeObject(info: ResourceInfo, body: Buffer, contentType: string | undefined): Obj {
  const type = (contentType ?? 'application/json').split(';')[0]?.trim() ?? '';
  let obj: unknown;
  if (type === 'application/yaml') {
    try {
      obj = YAML.parse(body.toString('utf8'));
    } catch (e) {
      throw badRequest(`error decoding YAML: ${(e as Error).message}`);
    }
  } else if (type === 'application/json' || type === '') {
    obj = parseJson(body);
  } else if (type === 'application/vnd.kubernetes.protobuf') {
    obj = decodeProtobuf(body);
  } else {
    throw new ApiError(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml`,
    );
  }
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) {
    throw badRequest(`the object provided is unrecognized (must be of type ${info.kind})`);
  }
  const o = obj as Obj;
  o.apiVersion ??= groupVersion(info);
  o.kind ??= info.kind;
  if (
    apiVersionGroup(String(o.apiVersion)) !== info.group ||
    (!info.custom && o.apiVersion !== groupVersion(info))
  ) {
    throw badRequest(
      `the API version in the data (${String(o.apiVersion)}) does not match the expected API version (${groupVersion(info)})`,
    );
  }
  if (o.kind !== info.kind)
    throw badRequest(
      `the kind in the data (${String(o.kind)}) does not match the expected kind (${info.kind})`,
    );
  if (
    o.metadata !== undefined &&
    (typeof o.metadata !== 'object' || o.metadata === null || Array.isArray(o.metadata))
  ) {
    throw badRequest('metadata must be an object');
  }
  o.metadata ??= {};
  return o;
}
