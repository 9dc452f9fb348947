// The e2e projects' setup file (vitest.config.ts), run before each test file: the file's temporary directories
// (harness.ts's tempDir) go when its tests are done. The files of a worker share one module graph, so harness.ts is
// evaluated once per worker; this file runs once per test file.
import { afterAll } from 'vitest';
import { removeTempDirs } from './harness.js';

afterAll(removeTempDirs);
