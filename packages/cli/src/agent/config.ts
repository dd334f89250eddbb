import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isPresetName, PERMISSION_PRESETS, type PermissionPresetName } from '@bough/coding';
import { flag, has, intFlag, type ParsedArgs, UsageError } from '../args.js';

/** Where a setting came from, most specific first. */
export type ConfigSource = 'flag' | 'env' | 'file' | 'default';

/** One resolved setting and its origin (e.g. `--model`, `env BOUGH_MODEL`, a config file path). */
export interface Setting<T> {
  readonly value: T;
  readonly source: ConfigSource;
  readonly from: string;
}

/** Everything `bough agent` runs with. The API key itself is kept apart and is never printed. */
export interface AgentConfig {
  readonly baseUrl: Setting<string | undefined>;
  readonly model: Setting<string | undefined>;
  readonly apiKeyEnv: Setting<string>;
  readonly apiKey: Setting<string | undefined>;
  readonly permissions: Setting<PermissionPresetName>;
  readonly maxTurns: Setting<number | undefined>;
  readonly timeoutMs: Setting<number | undefined>;
  readonly retries: Setting<number | undefined>;
  readonly stream: Setting<boolean>;
  /** The config file read, if any. */
  readonly file: string | undefined;
}

/** The keys a config file may hold (a key is never read from a file: name its variable with `apiKeyEnv`). */
const FILE_KEYS = [
  'baseUrl',
  'model',
  'apiKeyEnv',
  'permissions',
  'maxTurns',
  'timeoutMs',
  'retries',
  'stream',
] as const;
type FileConfig = Partial<Record<(typeof FILE_KEYS)[number], unknown>>;

/** `bough.config.json` in the workspace, else `~/.config/bough/config.json` (XDG_CONFIG_HOME respected). */
export function configFilePath(root: string, env: Readonly<Record<string, string | undefined>>): string | undefined {
  const local = join(root, 'bough.config.json');
  if (existsSync(local)) return local;
  const home = env.XDG_CONFIG_HOME || (env.HOME ? join(env.HOME, '.config') : undefined);
  const user = home ? join(home, 'bough', 'config.json') : undefined;
  return user && existsSync(user) ? user : undefined;
}

function readConfigFile(path: string | undefined): FileConfig {
  if (!path) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`The config file ${path} is not valid JSON (${(error as Error).message}).`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(`The config file ${path} must hold one JSON object.`);
  }
  const unknown = Object.keys(parsed).filter((key) => !(FILE_KEYS as readonly string[]).includes(key));
  if (unknown.length > 0) {
    const hint = unknown.includes('apiKey')
      ? ' (keys are never read from a file: set apiKeyEnv to the variable that holds it)'
      : '';
    throw new UsageError(
      `The config file ${path} has unknown keys: ${unknown.join(', ')}${hint}. Known: ${FILE_KEYS.join(', ')}.`,
    );
  }
  return parsed as FileConfig;
}

function pick<T>(
  candidates: readonly (readonly [ConfigSource, string, T | undefined])[],
  fallback: T,
  fallbackFrom = 'built-in default',
): Setting<T> {
  for (const [source, from, value] of candidates) if (value !== undefined) return { value, source, from };
  return { value: fallback, source: 'default', from: fallbackFrom };
}

function fileString(file: FileConfig, key: keyof FileConfig, path: string): string | undefined {
  const value = file[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw new UsageError(`${key} in ${path} must be a non-empty string.`);
  return value;
}

function fileInt(file: FileConfig, key: keyof FileConfig, path: string, min: number): number | undefined {
  const value = file[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new UsageError(`${key} in ${path} must be a whole number ≥ ${min}.`);
  }
  return value;
}

function envInt(env: Readonly<Record<string, string | undefined>>, name: string, min: number): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new UsageError(`$${name} must be a whole number ≥ ${min}.`);
  return value;
}

/** Resolves the agent's settings: flags, then environment, then the config file, then defaults. */
export function resolveAgentConfig(
  args: ParsedArgs,
  env: Readonly<Record<string, string | undefined>>,
  root: string,
): AgentConfig {
  const path = configFilePath(root, env);
  const file = readConfigFile(path);
  const where = path ?? '';
  const preset = (value: string | undefined, origin: string) => {
    if (value !== undefined && !isPresetName(value)) {
      throw new UsageError(
        `${origin} must be one of ${Object.keys(PERMISSION_PRESETS).join(', ')} (got ${JSON.stringify(value)}).`,
      );
    }
    return value as PermissionPresetName | undefined;
  };
  const retriesFlag = flag(args, 'retries');
  if (retriesFlag !== undefined && !/^\d+$/.test(retriesFlag))
    throw new UsageError('--retries must be a whole number (0 or more).');
  const apiKeyEnv = pick<string>(
    [
      ['flag', '--api-key-env', flag(args, 'api-key-env')],
      ['file', where, fileString(file, 'apiKeyEnv', where)],
    ],
    'OPENAI_API_KEY',
  );
  const key = env[apiKeyEnv.value];
  const fileStream = file.stream;
  if (fileStream !== undefined && typeof fileStream !== 'boolean')
    throw new UsageError(`stream in ${where} must be true or false.`);
  return {
    file: path,
    baseUrl: pick<string | undefined>(
      [
        ['flag', '--base-url', flag(args, 'base-url')],
        ['env', 'env OPENAI_BASE_URL', env.OPENAI_BASE_URL || undefined],
        ['file', where, fileString(file, 'baseUrl', where)],
      ],
      undefined,
      'not set',
    ),
    model: pick<string | undefined>(
      [
        ['flag', '--model', flag(args, 'model')],
        ['env', 'env BOUGH_MODEL', env.BOUGH_MODEL || undefined],
        ['file', where, fileString(file, 'model', where)],
      ],
      undefined,
      'not set',
    ),
    apiKeyEnv,
    apiKey: key
      ? { value: key, source: 'env', from: `env ${apiKeyEnv.value}` }
      : { value: undefined, source: 'default', from: 'not set' },
    permissions: pick<PermissionPresetName>(
      [
        ['flag', '--permissions', preset(flag(args, 'permissions'), '--permissions')],
        ['file', where, preset(fileString(file, 'permissions', where), `permissions in ${where}`)],
      ],
      'safe',
    ),
    maxTurns: pick<number | undefined>(
      [
        ['flag', '--max-turns', intFlag(args, 'max-turns')],
        ['file', where, fileInt(file, 'maxTurns', where, 1)],
      ],
      undefined,
      'built-in default (20)',
    ),
    timeoutMs: pick<number | undefined>(
      [
        ['flag', '--timeout', intFlag(args, 'timeout')],
        ['env', 'env BOUGH_MODEL_TIMEOUT_MS', envInt(env, 'BOUGH_MODEL_TIMEOUT_MS', 1)],
        ['file', where, fileInt(file, 'timeoutMs', where, 1)],
      ],
      undefined,
      'built-in default (120000)',
    ),
    retries: pick<number | undefined>(
      [
        ['flag', '--retries', retriesFlag === undefined ? undefined : Number(retriesFlag)],
        ['env', 'env BOUGH_MODEL_RETRIES', envInt(env, 'BOUGH_MODEL_RETRIES', 0)],
        ['file', where, fileInt(file, 'retries', where, 0)],
      ],
      undefined,
      'built-in default (3)',
    ),
    stream: pick<boolean>(
      [
        ['flag', '--no-stream', has(args, 'no-stream') ? false : undefined],
        ['file', where, fileStream as boolean | undefined],
      ],
      true,
    ),
  };
}

/** The `--print-config` text: every value and where it came from; the key only as set / not set. */
export function renderConfig(config: AgentConfig): string {
  const row = (name: string, value: string, from: string) => `  ${name.padEnd(12)} ${value.padEnd(40)} (${from})\n`;
  const show = (value: unknown) => (value === undefined ? '-' : String(value));
  return (
    `bough agent configuration (flags, then environment, then ${config.file ?? 'no config file found'}, then defaults):\n` +
    row('baseUrl', show(config.baseUrl.value), config.baseUrl.from) +
    row('model', show(config.model.value), config.model.from) +
    row('apiKeyEnv', config.apiKeyEnv.value, config.apiKeyEnv.from) +
    row('apiKey', config.apiKey.value ? 'set (hidden)' : 'not set', config.apiKey.from) +
    row('permissions', config.permissions.value, config.permissions.from) +
    row('maxTurns', show(config.maxTurns.value), config.maxTurns.from) +
    row('timeoutMs', show(config.timeoutMs.value), config.timeoutMs.from) +
    row('retries', show(config.retries.value), config.retries.from) +
    row('stream', String(config.stream.value), config.stream.from)
  );
}
