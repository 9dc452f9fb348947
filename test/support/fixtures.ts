// Reference data committed under test/fixtures/; test/fixtures/README.md says where each file comes from.
// A missing fixture is an error, never a reason to skip: the tests that read these files back the README's claims.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');

/** The path of a committed fixture file or directory; throws when it is not there. */
export function fixturePath(...parts: string[]): string {
  const p = path.join(FIXTURES_DIR, ...parts);
  if (!existsSync(p)) {
    throw new Error(
      `test fixture ${path.relative(process.cwd(), p)} is missing (see test/fixtures/README.md)`,
    );
  }
  return p;
}
