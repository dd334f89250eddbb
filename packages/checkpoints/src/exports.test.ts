import { expect, it } from 'vitest';

it('exports exactly these names, so every change to the public surface is deliberate', async () => {
  expect(Object.keys(await import('./index.js')).sort()).toMatchInlineSnapshot(`
    [
      "CHECKPOINTS_DESCRIPTION",
      "CHECKPOINTS_ERROR_CODES",
      "CHECKPOINTS_LIMITS",
      "CheckpointsDiffResult",
      "CheckpointsFailureSchema",
      "CheckpointsListResult",
      "CheckpointsRequest",
      "CheckpointsResponse",
      "CheckpointsRestoreResult",
      "DEFAULT_CHECKPOINTS_LIMITS",
      "checkpointsProvider",
      "createCheckpointStore",
      "createCheckpointsTool",
      "defaultStoreDir",
      "handleCheckpoints",
      "resolveCheckpointsLimits",
    ]
  `);
});
