/** The commands of every page under docs/, run as a reader would (markdown-run.ts has the rules). */
import { documentationPages, runPages } from './markdown-run.js';

runPages(
  documentationPages().filter(
    (page) => page !== 'README.md' && (process.env.DOCS_PAGE === undefined || page === process.env.DOCS_PAGE),
  ),
);
