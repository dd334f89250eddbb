import type { SandboxSettings } from '@bough/process';
import type { BashOptions } from './bash-options.js';
import type { BashLimits } from './limits.js';

/** The process-level sandbox settings for a bash tool's options (host options only: no request field reaches them). */
export function sandboxSettings(options: BashOptions, limits: BashLimits): SandboxSettings {
  return {
    mode: options.sandbox ?? 'off',
    network: options.network === true,
    scanEntries: limits.sandboxScanEntries,
    ...(options.protectedNames ? { protectedNames: options.protectedNames } : {}),
    ...(options.sandboxReadOnlyPaths ? { readOnlyPaths: options.sandboxReadOnlyPaths } : {}),
    ...(options.denyRead ? { denyRead: options.denyRead } : {}),
    ...(options.denyWrite ? { denyWrite: options.denyWrite } : {}),
  };
}
