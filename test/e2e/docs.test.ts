/**
 * The commands of every page under docs/, run as a reader would (markdown-run.ts has the rules): ```sh blocks and
 * plain ``` transcripts, through a pipe. A ```text transcript (`$ kubectl crossplane-rbac ...` and what a terminal N
 * columns wide shows: folded lists, stderr's lines among stdout's) cannot be checked through a pipe, yet must not go
 * stale silently; rather than give each one a pseudo-terminal, a test API server and the built binary here (the gate's
 * costliest kind of test), test/unit/docs-transcripts.test.ts runs them in-process on a terminal of that width, offline
 * with -f (which it requires), and compares their output as this test does: the whole check costs one process.
 */
import { documentationPages, runPages } from './markdown-run.js';

runPages(
  documentationPages().filter(
    (page) => page !== 'README.md' && (process.env.DOCS_PAGE === undefined || page === process.env.DOCS_PAGE),
  ),
);
