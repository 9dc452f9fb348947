/**
 * The write verbs: create, update (PUT, and the status subresource), patch (merge, strategic merge, JSON patch,
 * server-side apply), delete with preconditions and propagation, and the garbage collector that follows deletes.
 * Every write is validated and passes the RBAC storage's escalation checks before it is stored.
 */
import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import YAML from 'yaml';
import type { UserInfo } from './authz.js';
import { checkRbacWrite } from './authz.js';
import { decodeObject, parseJson } from './http.js';
import { canonical, crdStatus, hasGeneration, present, randomSuffix, sortKeys } from './objects.js';
import { PatchError, applyDelta, clone, jsonPatch, mergePatch, strategicMergePatch } from './patch.js';
import type { ResourceInfo } from './registry.js';
import type { RequestInfo } from './request-info.js';
import type { ServerState } from './state.js';
import {
  MODIFIED,
  alreadyExists,
  badRequest,
  conflict,
  forbidden,
  internalError,
  invalid,
  notFound,
  unsupportedMediaType,
} from './status.js';
import { nowTimestamp, storeKeyOf } from './store.js';
import type { Obj } from './types.js';
import { validateObject } from './validate.js';

/** The object's namespace is the request's (a different one is refused); cluster-scoped objects have none. */
function setNamespace(info: ResourceInfo, ri: RequestInfo, meta: Obj): void {
  if (!info.namespaced) {
    delete meta.namespace;
    return;
  }
  if (meta.namespace !== undefined && meta.namespace !== '' && meta.namespace !== ri.namespace) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  meta.namespace = ri.namespace;
}

export class Writes {
  constructor(private readonly state: ServerState) {}

  private checkWrite(
    info: ResourceInfo,
    ri: RequestInfo,
    user: UserInfo,
    obj: Obj,
    old: Obj | undefined,
  ): void {
    const causes = validateObject(obj, info, old);
    if (causes.length > 0) throw invalid(info.group, info.kind, String(obj.metadata?.name ?? ''), causes);
    if (info.group === 'rbac.authorization.k8s.io') {
      const outcome = checkRbacWrite(
        this.state.policy,
        user,
        info.resource,
        info.namespaced ? ri.namespace : '',
        ri.name,
        obj,
        old,
      );
      if (!outcome.ok) {
        if (outcome.status === 500) throw internalError(outcome.message);
        if (outcome.notFound !== undefined)
          throw notFound(
            { group: 'rbac.authorization.k8s.io', resource: outcome.notFound.resource },
            outcome.notFound.name,
          );
        throw forbidden(
          { group: info.group, resource: info.resource },
          String(obj.metadata?.name ?? ''),
          outcome.message,
        );
      }
    }
  }

  create(info: ResourceInfo, ri: RequestInfo, obj: Obj, user: UserInfo, dryRun: boolean): Obj {
    const meta = obj.metadata as Obj;
    setNamespace(info, ri, meta);
    if ((meta.name ?? '') === '' && typeof meta.generateName === 'string' && meta.generateName !== '') {
      meta.name = `${meta.generateName}${randomSuffix()}`;
    }
    for (const f of [
      'uid',
      'resourceVersion',
      'creationTimestamp',
      'deletionTimestamp',
      'generation',
      'managedFields',
    ])
      Reflect.deleteProperty(meta, f);
    if (info.status && info.resource !== 'namespaces') delete obj.status;
    if (info.resource === 'namespaces') obj.status = { phase: 'Active' };
    if (info.resource === 'customresourcedefinitions') obj.status = crdStatus(obj);
    if (hasGeneration(info)) meta.generation = 1;
    this.checkWrite(info, { ...ri, name: '' }, user, obj, undefined);
    const key = storeKeyOf(info);
    const gr = { group: info.group, resource: info.resource };
    if (this.state.store.get(key, meta.namespace ?? '', meta.name) !== undefined)
      throw alreadyExists(gr, meta.name);
    if (dryRun) {
      meta.uid = randomUUID();
      meta.creationTimestamp = nowTimestamp();
      return obj;
    }
    const stored = this.state.store.put(key, obj, 'ADDED');
    this.state.afterWrite(info);
    return stored;
  }

  update(
    info: ResourceInfo,
    ri: RequestInfo,
    obj: Obj,
    user: UserInfo,
    dryRun: boolean,
    isPut: boolean,
  ): { result: Obj; created: boolean } {
    const gr = { group: info.group, resource: info.resource };
    const meta = obj.metadata as Obj;
    if (meta.name !== undefined && meta.name !== ri.name) {
      throw badRequest(
        `the name of the object (${String(meta.name)}) does not match the name on the URL (${ri.name})`,
      );
    }
    meta.name = ri.name;
    setNamespace(info, ri, meta);
    const key = storeKeyOf(info);
    const namespace = info.namespaced ? ri.namespace : '';
    const old = this.state.store.get(key, namespace, ri.name);
    if (old === undefined) {
      // The RBAC kinds allow create on update (their strategies' AllowCreateOnUpdate); the others are 404.
      if (info.group === 'rbac.authorization.k8s.io' && ri.subresource === '') {
        return { result: this.create(info, ri, obj, user, dryRun), created: true };
      }
      throw notFound(gr, ri.name);
    }
    const rv = meta.resourceVersion;
    if (rv !== undefined && rv !== '' && rv !== old.metadata.resourceVersion)
      throw conflict(gr, ri.name, MODIFIED);
    if (isPut && info.custom && (rv === undefined || rv === '')) {
      throw invalid(info.group, info.kind, ri.name, [
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: 0x0: must be specified for an update',
          field: 'metadata.resourceVersion',
        },
      ]);
    }
    if (meta.uid !== undefined && meta.uid !== '' && meta.uid !== old.metadata.uid) {
      throw conflict(
        gr,
        ri.name,
        `Precondition failed: UID in precondition: ${String(meta.uid)}, UID in object meta: ${String(old.metadata.uid)}`,
      );
    }
    let next = obj;
    if (ri.subresource === 'status') {
      next = clone(old);
      next.status = clone(obj.status);
    } else if (info.status) {
      if (old.status === undefined) delete next.status;
      else next.status = clone(old.status);
    }
    const nm = next.metadata as Obj;
    nm.uid = old.metadata.uid;
    nm.creationTimestamp = old.metadata.creationTimestamp;
    if (old.metadata.deletionTimestamp !== undefined) nm.deletionTimestamp = old.metadata.deletionTimestamp;
    else delete nm.deletionTimestamp;
    if (hasGeneration(info)) {
      const gen = Number(old.metadata.generation ?? 1);
      nm.generation =
        JSON.stringify(sortKeys(next.spec)) !== JSON.stringify(sortKeys(old.spec)) ? gen + 1 : gen;
    } else delete nm.generation;
    if (info.resource === 'customresourcedefinitions' && ri.subresource === '') next.status = crdStatus(next);
    nm.resourceVersion = old.metadata.resourceVersion;
    this.checkWrite(info, ri, user, next, old);
    if (canonical(next) === canonical(old)) return { result: old, created: false };
    if (dryRun) return { result: next, created: false };
    if (nm.deletionTimestamp !== undefined && (nm.finalizers ?? []).length === 0) {
      this.state.store.remove(key, namespace, ri.name);
      this.collectGarbage(String(old.metadata.uid), 'Background');
      this.state.afterWrite(info);
      return { result: next, created: false };
    }
    const stored = this.state.store.put(key, next, 'MODIFIED');
    this.state.afterWrite(info);
    return { result: stored, created: false };
  }

  patch(
    info: ResourceInfo,
    ri: RequestInfo,
    query: URLSearchParams,
    req: http.IncomingMessage,
    body: Buffer,
    user: UserInfo,
    dryRun: boolean,
  ): { result: Obj; created: boolean } {
    const gr = { group: info.group, resource: info.resource };
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim() ?? '';
    const namespace = info.namespaced ? ri.namespace : '';
    const key = storeKeyOf(info);
    const old = this.state.store.get(key, namespace, ri.name);
    if (type === 'application/apply-patch+yaml') {
      const manager = query.get('fieldManager') ?? '';
      if (manager === '') {
        throw invalid('meta.k8s.io', 'PatchOptions', '', [
          {
            reason: 'FieldValueRequired',
            message: 'Required value: is required for apply patch',
            field: 'fieldManager',
          },
        ]);
      }
      let applied: unknown;
      try {
        applied = YAML.parse(body.toString('utf8'));
      } catch (e) {
        throw badRequest(`error decoding YAML: ${(e as Error).message}`);
      }
      if (typeof applied !== 'object' || applied === null || Array.isArray(applied))
        throw badRequest('invalid object for apply patch');
      const a = applied as Obj;
      if (typeof a.apiVersion !== 'string' || typeof a.kind !== 'string') {
        throw badRequest('invalid object type: /, Kind=');
      }
      const appliedKey = `${key}|${namespace}/${ri.name}|${manager}`;
      let result: { result: Obj; created: boolean };
      if (old === undefined) {
        const obj = decodeObject(info, Buffer.from(JSON.stringify(a)), 'application/json');
        obj.metadata.name ??= ri.name;
        if (obj.metadata.name !== ri.name) {
          throw badRequest(
            `the name of the object (${String(obj.metadata.name)}) does not match the name on the URL (${ri.name})`,
          );
        }
        result = { result: this.create(info, ri, obj, user, dryRun), created: true };
      } else {
        const delta = applyDelta(this.state.lastApplied.get(appliedKey) ?? {}, a) as Obj;
        if (delta.metadata) {
          delete delta.metadata.resourceVersion;
          delete delta.metadata.uid;
        }
        const next = mergePatch(clone(old), delta) as Obj;
        next.metadata.resourceVersion = old.metadata.resourceVersion;
        result = this.update(info, ri, this.decodeObj(info, next), user, dryRun, false);
      }
      if (!dryRun) this.state.lastApplied.set(appliedKey, clone(a));
      return result;
    }
    if (old === undefined) throw notFound(gr, ri.name);
    const patch = parseJson(body);
    let next: unknown;
    try {
      switch (type) {
        case 'application/merge-patch+json':
          next = mergePatch(clone(old), patch);
          break;
        case 'application/strategic-merge-patch+json':
          if (info.custom) throw unsupportedMediaType(type);
          next = strategicMergePatch(clone(old), patch);
          break;
        case 'application/json-patch+json':
          next = jsonPatch(clone(old), patch);
          break;
        default:
          throw unsupportedMediaType(type);
      }
    } catch (e) {
      if (e instanceof PatchError)
        throw invalid(info.group, info.kind, ri.name, [
          { reason: 'FieldValueInvalid', message: e.message, field: '' },
        ]);
      throw e;
    }
    if (typeof next !== 'object' || next === null || Array.isArray(next))
      throw badRequest('the patch produced an invalid object');
    const n = next as Obj;
    if (n.metadata?.name !== undefined && n.metadata.name !== ri.name) {
      throw badRequest(
        `the name of the object (${String(n.metadata.name)}) does not match the name on the URL (${ri.name})`,
      );
    }
    return this.update(info, ri, this.decodeObj(info, n), user, dryRun, false);
  }

  private decodeObj(info: ResourceInfo, obj: Obj): Obj {
    return decodeObject(info, Buffer.from(JSON.stringify(obj)), 'application/json');
  }

  delete(info: ResourceInfo, namespace: string, name: string, options: Obj): Obj {
    const gr = { group: info.group, resource: info.resource };
    const key = storeKeyOf(info);
    const obj = this.state.store.get(key, namespace, name);
    if (obj === undefined) throw notFound(gr, name);
    const pre = (options.preconditions ?? {}) as Obj;
    if (pre.uid !== undefined && pre.uid !== null && pre.uid !== obj.metadata.uid) {
      throw conflict(
        gr,
        name,
        `Precondition failed: UID in precondition: ${String(pre.uid)}, UID in object meta: ${String(obj.metadata.uid)}`,
      );
    }
    if (
      pre.resourceVersion !== undefined &&
      pre.resourceVersion !== null &&
      pre.resourceVersion !== obj.metadata.resourceVersion
    ) {
      throw conflict(
        gr,
        name,
        `Precondition failed: ResourceVersion in precondition: ${String(pre.resourceVersion)}, ResourceVersion in object meta: ${String(obj.metadata.resourceVersion)}`,
      );
    }
    const dryRun = Array.isArray(options.dryRun) && options.dryRun.includes('All');
    const policy = typeof options.propagationPolicy === 'string' ? options.propagationPolicy : 'Background';
    if (!['Background', 'Foreground', 'Orphan'].includes(policy)) {
      throw badRequest(
        `DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "${policy}": supported values: "Foreground", "Background", "Orphan"`,
      );
    }
    const successStatus = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name, group: info.group, kind: info.resource, uid: obj.metadata.uid },
    };
    if (dryRun) return info.custom ? present(info, obj) : successStatus;
    if ((obj.metadata.finalizers ?? []).length > 0) {
      if (obj.metadata.deletionTimestamp === undefined) {
        const marked = clone(obj);
        marked.metadata.deletionTimestamp = nowTimestamp();
        marked.metadata.deletionGracePeriodSeconds = 0;
        this.state.store.put(key, marked, 'MODIFIED');
        return present(info, marked);
      }
      return present(info, obj);
    }
    this.state.store.remove(key, namespace, name);
    for (const k of [...this.state.lastApplied.keys()])
      if (k.startsWith(`${key}|${namespace}/${name}|`)) this.state.lastApplied.delete(k);
    if (info.resource === 'customresourcedefinitions') {
      const spec = obj.spec as Obj;
      for (const [k, o] of [...this.state.store.all()]) {
        if (k === `${String(spec.group)}/${String(spec.names?.plural)}`)
          this.state.store.remove(k, o.metadata.namespace ?? '', o.metadata.name);
      }
    }
    if (info.resource === 'namespaces') {
      for (const [k, o] of [...this.state.store.all()])
        if (o.metadata?.namespace === name) this.state.store.remove(k, name, o.metadata.name);
    }
    this.collectGarbage(String(obj.metadata.uid), policy);
    this.state.afterWrite(info);
    return info.custom ? present(info, obj) : successStatus;
  }

  /**
   * The garbage collector, run at once: dependents whose owners are all gone are deleted (recursively);
   * dangling owner references are removed from dependents that keep a live owner; Orphan only removes
   * the references to the deleted owner.
   */
  private collectGarbage(ownerUid: string, policy: string): void {
    const queue = [ownerUid];
    while (queue.length > 0) {
      const uid = queue.shift() ?? '';
      for (const [k, o] of [...this.state.store.all()]) {
        const refs = (o.metadata?.ownerReferences ?? []) as Obj[];
        if (!refs.some((r) => r.uid === uid)) continue;
        const live = refs.filter(
          (r) => r.uid !== uid && this.state.store.findByUid(String(r.uid)) !== undefined,
        );
        if (policy === 'Orphan' || live.length > 0) {
          const c = clone(o);
          c.metadata.ownerReferences = policy === 'Orphan' ? refs.filter((r) => r.uid !== uid) : live;
          if (c.metadata.ownerReferences.length === 0) delete c.metadata.ownerReferences;
          this.state.store.put(k, c, 'MODIFIED');
          continue;
        }
        if ((o.metadata.finalizers ?? []).length > 0) {
          const c = clone(o);
          c.metadata.deletionTimestamp ??= nowTimestamp();
          this.state.store.put(k, c, 'MODIFIED');
          continue;
        }
        this.state.store.remove(k, o.metadata.namespace ?? '', o.metadata.name);
        queue.push(String(o.metadata.uid));
        if (k === 'rbac.authorization.k8s.io/clusterroles') this.state.aggregation.changed();
      }
    }
  }
}
