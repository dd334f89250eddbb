// Tests only (excluded from the build). @branchkit/ai-sdk has no zod dependency of its own, so the tests borrow the
// copy installed for @branchkit/core. The value comes from the ESM build core loads at runtime; the type comes from the
// `.d.cts` declarations core's own `import 'zod'` resolves to, so TypeScript sees one zod, not two. With zod as a
// devDependency of this package this file would shrink to `export { z } from 'zod'`.

import type { z as Z } from '../../core/node_modules/zod/index.cjs';
import * as zodModule from '../../core/node_modules/zod/index.js';

/** The zod namespace for test schemas. */
export const z = (zodModule as unknown as { z: typeof Z }).z;
