import type { BenchSuite } from '../harness.js';
import { coreSuite } from './core.js';

/** Every suite `pnpm bench` runs, in order. */
export const suites: BenchSuite[] = [coreSuite];
