/**
 * How the floor clients read an answer: they ask for gzip, as the plugin and kubectl do (so the server does the same
 * work for them as for the client they are the floor of), and gunzip what comes compressed: a body read as bytes is
 * still a body a client must decompress before it can use it (kube-apiserver compresses answers over 128 KiB).
 */
import type { IncomingMessage } from 'node:http';
import { request, type Agent } from 'node:https';
import { gunzipSync } from 'node:zlib';

export const ACCEPT_ENCODING = { 'Accept-Encoding': 'gzip' } as const;

/** The answer's body, gunzipped when it came compressed. */
export function readAnswer(res: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => {
      const body = Buffer.concat(chunks);
      resolve(res.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body);
    });
    res.on('error', reject);
  });
}

/** A GET of URL with TOKEN over AGENT, asking for gzip and ACCEPT: its body (gunzipped), or an error unless 200. */
export function getBody(agent: Agent, url: string, token: string, accept: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const headers = { Authorization: `Bearer ${token}`, Accept: accept, ...ACCEPT_ENCODING };
    const req = request(url, { agent, headers }, (res) => {
      readAnswer(res).then((body) => {
        if (res.statusCode === 200) resolve(body);
        else reject(new Error(`GET ${url}: HTTP ${String(res.statusCode)}`));
      }, reject);
    });
    req.on('error', reject);
    req.end();
  });
}
