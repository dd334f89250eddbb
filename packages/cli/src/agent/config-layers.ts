import { DEFAULT_AI_SDK_LIMITS } from '@bough/ai-sdk';
import {
  DEFAULT_CODING_LIMITS,
  isPresetName,
  PERMISSION_PRESETS,
  type PermissionPresetName,
  PRESET_RANK,
} from '@bough/coding';
import { UsageError } from '../args.js';

/** The keys a config file may hold (a key is never read from a file: name its variable with `apiKeyEnv`). */
export const FILE_KEYS = [
  'baseUrl',
  'model',
  'apiKeyEnv',
  'permissions',
  'maxTurns',
  'timeoutMs',
  'retries',
  'stream',
] as const;

/** One config file key. */
export type FileKey = (typeof FILE_KEYS)[number];
/** The parsed content of a config file (values checked by the caller). */
export type FileConfig = Partial<Record<FileKey, unknown>>;
/** A value read from a config file, and the file's path. */
export interface FileValue {
  readonly value: unknown;
  readonly from: string;
}

/**
 * Keys a workspace file never sets: where requests go, which model the user's key pays for, and which variable holds
 * the key. A cloned repository that could set them would receive the user's key and code.
 */
const USER_ONLY: readonly FileKey[] = ['baseUrl', 'model', 'apiKeyEnv'];

/** Limits a workspace file may only lower, with the built-in defaults they are compared with when the user set none. */
export const LOWER_ONLY = {
  maxTurns: DEFAULT_CODING_LIMITS.agentMaxTurns,
  timeoutMs: DEFAULT_AI_SDK_LIMITS.requestTimeoutMs,
  retries: DEFAULT_AI_SDK_LIMITS.maxRetries,
} as const satisfies Readonly<Partial<Record<FileKey, number>>>;

/**
 * Layers the workspace's `bough.config.json` over the user's own file so that it can only narrow: a stricter policy
 * and lower limits are taken; a wider policy, higher limits and every key in {@link USER_ONLY} are left out and
 * listed in `ignored` with the reason. Values must already be checked (types, preset names).
 */
export function layerFiles(
  user: { readonly config: FileConfig; readonly path: string } | undefined,
  workspace: { readonly config: FileConfig; readonly path: string } | undefined,
): { values: Partial<Record<FileKey, FileValue>>; ignored: string[] } {
  const values: Partial<Record<FileKey, FileValue>> = {};
  for (const key of FILE_KEYS) {
    if (user && user.config[key] !== undefined) values[key] = { value: user.config[key], from: user.path };
  }
  const ignored: string[] = [];
  if (!workspace) return { values, ignored };
  const endpoint = USER_ONLY.filter((key) => workspace.config[key] !== undefined);
  if (endpoint.length > 0) {
    ignored.push(
      `${endpoint.join(', ')} (the endpoint, the model and the key's variable come only from your flags, environment or ${user?.path ?? '~/.config/bough/config.json'})`,
    );
  }
  for (const key of FILE_KEYS) {
    const value = workspace.config[key];
    if (value === undefined || USER_ONLY.includes(key)) continue;
    const mine = values[key]?.value;
    if (key === 'permissions') {
      const allowed = (mine ?? 'safe') as PermissionPresetName;
      if (PRESET_RANK[value as PermissionPresetName] > PRESET_RANK[allowed]) {
        ignored.push(`permissions ${JSON.stringify(value)} (wider than ${JSON.stringify(allowed)}, which you allow)`);
        continue;
      }
    }
    const ceiling = (LOWER_ONLY as Partial<Record<FileKey, number>>)[key];
    if (ceiling !== undefined) {
      const allowed = (mine ?? ceiling) as number;
      if ((value as number) > allowed) {
        ignored.push(`${key} ${value} (higher than ${allowed}, which you allow)`);
        continue;
      }
    }
    values[key] = { value, from: workspace.path };
  }
  return { values, ignored };
}

/** The preset names, for messages. */
export const PRESET_NAMES = Object.keys(PERMISSION_PRESETS);

/** Checks the type of every value a config file holds, naming the file and the key of a bad one. */
export function checkFile(file: FileConfig, path: string): void {
  for (const key of ['baseUrl', 'model', 'apiKeyEnv', 'permissions'] as const) {
    const value = file[key];
    if (value !== undefined && (typeof value !== 'string' || value === ''))
      throw new UsageError(`${key} in ${path} must be a non-empty string.`);
  }
  if (file.permissions !== undefined && !isPresetName(file.permissions)) {
    throw new UsageError(
      `permissions in ${path} must be one of ${PRESET_NAMES.join(', ')} (got ${JSON.stringify(file.permissions)}).`,
    );
  }
  for (const [key, min] of [
    ['maxTurns', 1],
    ['timeoutMs', 1],
    ['retries', 0],
  ] as const) {
    const value = file[key];
    if (value !== undefined && (typeof value !== 'number' || !Number.isInteger(value) || value < min))
      throw new UsageError(`${key} in ${path} must be a whole number ≥ ${min}.`);
  }
  if (file.stream !== undefined && typeof file.stream !== 'boolean')
    throw new UsageError(`stream in ${path} must be true or false.`);
}
