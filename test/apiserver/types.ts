/**
 * The test API server's public surface (how tests start it, its options, its fault injection) and the types its
 * parts share.
 */
import type { RequestCounters } from './counters.js';
import type { WatchSettings } from './reads.js';

/** An object of any kind, as untyped JSON, the way the API stores it. */
export type Obj = Record<string, any>;

export interface FaultConfig {
  /** Added to every request, discovery included. */
  latencyMs: number;
  /** Fraction (0..1) of resource requests answered with errorCode. */
  errorRate: number;
  errorCode: 500 | 503;
  /** Fraction answered 429 with Retry-After: retryAfterSeconds. */
  throttleRate: number;
  retryAfterSeconds: number;
  /** Fraction of updates (PUT) answered 409 Conflict as if the object had changed. */
  conflictRate: number;
  /** Fraction of resource requests whose connection is destroyed without an answer, before they are served. */
  dropRate: number;
  /**
   * Fraction of resource requests served in full (a write is stored) whose connection is then destroyed, so the
   * answer is lost: what a client sees when the network fails after the server has done the work.
   */
  answerDropRate: number;
  /** When set, the rate-based faults apply only to these verbs / resources (plural, "res/sub" for subresources). */
  onlyVerbs?: string[] | undefined;
  onlyResources?: string[] | undefined;
  /** Fails the next `count` matching resource requests with `code`, before the rate-based faults. */
  failNext?:
    | {
        count: number;
        code: number;
        verbs?: string[] | undefined;
        /** Only these resources (plural, "res/sub" for subresources); all when absent. */
        resources?: string[] | undefined;
      }
    | undefined;
}

export interface ApiServerOptions {
  port?: number;
  latencyMs?: number;
  aggregation?: boolean;
  aggregationDelayMs?: number;
  /**
   * Answer /api and /apis in the aggregated format (apidiscovery.k8s.io/v2) to clients that ask for it, as Kubernetes
   * does since 1.30 (default true); false: only the legacy format, as older servers.
   */
  aggregatedDiscovery?: boolean;
  seed?: readonly unknown[];
}

export interface TestApiServer {
  /** The plain http address (for fetch). */
  readonly url: string;
  /** The https address on the same port, which the written kubeconfigs use. */
  httpsUrl(): string;
  /**
   * Stops listening and destroys every connection, as a killed API server would; the store is kept. A request
   * already being served still changes the store, but its answer is lost.
   */
  stop(): Promise<void>;
  /** After stop(): listens again on the same port with the same store, as an API server restarted on its etcd. */
  restart(): Promise<void>;
  seed(objects: readonly unknown[]): void;
  addUser(token: string, user: string, groups?: readonly string[]): void;
  writeKubeconfig(file: string, opts?: { token?: string; context?: string }): void;
  readonly counters: RequestCounters;
  faults: FaultConfig;
  get(resource: string, name: string, namespace?: string): unknown;
  list(resource: string, namespace?: string): unknown[];
  setAggregation(enabled: boolean): void;
  /** How watches answer an expired resourceVersion, and how often they get bookmarks (see WatchSettings). */
  watchSettings: WatchSettings;
  /**
   * Forgets the watch history up to RESOURCE_VERSION (default: the current one), as etcd's compaction does: a watch
   * from an older resourceVersion then answers 410 Expired. Returns the compacted resourceVersion.
   */
  compact(resourceVersion?: number): number;
  /** Sends a BOOKMARK now to every open watch that asked for them (allowWatchBookmarks); returns how many. */
  bookmarkWatches(): number;
  /** The watch streams open now. */
  openWatchCount(): number;
  /** The TCP connections open now, idle keep-alive ones included. */
  connectionCount(): number;
  /** The TCP connections accepted since the server started, closed ones included. */
  acceptedConnections(): number;
  /**
   * Warnings a validating admission webhook in warn mode returns (AdmissionResponse.warnings) for writes of a
   * resource: each is sent as kube-apiserver sends one, a `Warning: 299 - "TEXT"` header on the write's answer.
   */
  admissionWarnings: AdmissionWarning[];
}

/** Warnings on writes (create, update, patch, delete) of RESOURCE (plural; group any), optionally of one name. */
export interface AdmissionWarning {
  readonly resource: string;
  readonly name?: string;
  readonly warnings: readonly string[];
}

export const ADMIN_TOKEN = 'test-apiserver-admin-token';
