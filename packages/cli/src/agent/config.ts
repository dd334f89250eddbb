import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type DialectProfile,
  isDialectProfile,
  isPresetName,
  type PermissionPresetName,
  profileForModel,
} from '@bough/coding';
import { flag, has, intFlag, type ParsedArgs, UsageError } from '../args.js';
import {
  checkFile,
  FILE_KEYS,
  type FileConfig,
  type FileKey,
  LOWER_ONLY,
  layerFiles,
  PRESET_NAMES,
} from './config-layers.js';

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
  /** The tool family the model is offered: `--profile`, else the one its name says it was trained on. */
  readonly profile: Setting<DialectProfile>;
  /** The config files read: the user's own, and the workspace's (which may only narrow). */
  readonly files: ConfigFiles;
  /** What the workspace file asked for and was not given, each with the reason (told on stderr). */
  readonly ignored: readonly string[];
}

/** Where the agent's settings may come from on disk. */
export interface ConfigFiles {
  /** `~/.config/bough/config.json` (`$XDG_CONFIG_HOME/bough/config.json`): the user's own, trusted. */
  readonly user?: string;
  /** `bough.config.json` in the workspace: it came with the repository, so it may only narrow the user's settings. */
  readonly workspace?: string;
}

/** The config files that exist: the user's own and the workspace's `bough.config.json`. */
export function configFiles(root: string, env: Readonly<Record<string, string | undefined>>): ConfigFiles {
  const local = join(root, 'bough.config.json');
  const home = env.XDG_CONFIG_HOME || (env.HOME ? join(env.HOME, '.config') : undefined);
  const user = home ? join(home, 'bough', 'config.json') : undefined;
  return {
    ...(user && existsSync(user) ? { user } : {}),
    ...(existsSync(local) && local !== user ? { workspace: local } : {}),
  };
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

function envInt(env: Readonly<Record<string, string | undefined>>, name: string, min: number): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new UsageError(`$${name} must be a whole number ≥ ${min}.`);
  return value;
}

/**
 * Resolves the agent's settings: flags, then environment, then the config files, then defaults. The user's own file
 * is trusted; the workspace's may only narrow it (see {@link layerFiles}), and what it asked for beyond that is
 * listed in `ignored`.
 */
export function resolveAgentConfig(
  args: ParsedArgs,
  env: Readonly<Record<string, string | undefined>>,
  root: string,
): AgentConfig {
  const files = configFiles(root, env);
  const read = (path: string | undefined) => {
    if (!path) return undefined;
    const config = readConfigFile(path);
    checkFile(config, path);
    return { config, path };
  };
  const { values, ignored } = layerFiles(read(files.user), read(files.workspace));
  const fromFile = <T>(key: FileKey): readonly [ConfigSource, string, T | undefined] => [
    'file',
    values[key]?.from ?? '',
    values[key]?.value as T | undefined,
  ];
  const preset = (value: string | undefined, origin: string) => {
    if (value !== undefined && !isPresetName(value)) {
      throw new UsageError(`${origin} must be one of ${PRESET_NAMES.join(', ')} (got ${JSON.stringify(value)}).`);
    }
    return value as PermissionPresetName | undefined;
  };
  const retriesFlag = flag(args, 'retries');
  if (retriesFlag !== undefined && !/^\d+$/.test(retriesFlag))
    throw new UsageError('--retries must be a whole number (0 or more).');
  const apiKeyEnv = pick<string>(
    [['flag', '--api-key-env', flag(args, 'api-key-env')], fromFile<string>('apiKeyEnv')],
    'OPENAI_API_KEY',
  );
  const key = env[apiKeyEnv.value];
  const model = pick<string | undefined>(
    [
      ['flag', '--model', flag(args, 'model')],
      ['env', 'env BOUGH_MODEL', env.BOUGH_MODEL || undefined],
      fromFile<string>('model'),
    ],
    undefined,
    'not set',
  );
  return {
    files,
    ignored,
    baseUrl: pick<string | undefined>(
      [
        ['flag', '--base-url', flag(args, 'base-url')],
        ['env', 'env OPENAI_BASE_URL', env.OPENAI_BASE_URL || undefined],
        fromFile<string>('baseUrl'),
      ],
      undefined,
      'not set',
    ),
    model,
    profile: profileSetting(flag(args, 'profile'), model.value),
    apiKeyEnv,
    apiKey: key
      ? { value: key, source: 'env', from: `env ${apiKeyEnv.value}` }
      : { value: undefined, source: 'default', from: 'not set' },
    permissions: pick<PermissionPresetName>(
      [
        ['flag', '--permissions', preset(flag(args, 'permissions'), '--permissions')],
        fromFile<PermissionPresetName>('permissions'),
      ],
      'safe',
    ),
    maxTurns: pick<number | undefined>(
      [['flag', '--max-turns', intFlag(args, 'max-turns')], fromFile<number>('maxTurns')],
      undefined,
      `built-in default (${LOWER_ONLY.maxTurns})`,
    ),
    timeoutMs: pick<number | undefined>(
      [
        ['flag', '--timeout', intFlag(args, 'timeout')],
        ['env', 'env BOUGH_MODEL_TIMEOUT_MS', envInt(env, 'BOUGH_MODEL_TIMEOUT_MS', 1)],
        fromFile<number>('timeoutMs'),
      ],
      undefined,
      `built-in default (${LOWER_ONLY.timeoutMs})`,
    ),
    retries: pick<number | undefined>(
      [
        ['flag', '--retries', retriesFlag === undefined ? undefined : Number(retriesFlag)],
        ['env', 'env BOUGH_MODEL_RETRIES', envInt(env, 'BOUGH_MODEL_RETRIES', 0)],
        fromFile<number>('retries'),
      ],
      undefined,
      `built-in default (${LOWER_ONLY.retries})`,
    ),
    stream: pick<boolean>(
      [['flag', '--no-stream', has(args, 'no-stream') ? false : undefined], fromFile<boolean>('stream')],
      true,
    ),
  };
}

/** `--profile NAME` when given (checked), else the family the model name belongs to, else bough's own tools. */
function profileSetting(given: string | undefined, model: string | undefined): Setting<DialectProfile> {
  if (given !== undefined) {
    if (!isDialectProfile(given))
      throw new UsageError('--profile needs one of full, minimal, anthropic, openai, gemini.');
    return { value: given, source: 'flag', from: '--profile' };
  }
  if (model === undefined) return { value: 'full', source: 'default', from: 'built-in default' };
  return { value: profileForModel(model), source: 'default', from: `from the model name ${model}` };
}

/** The `--print-config` text: every value and where it came from; the key only as set / not set. */
export function renderConfig(config: AgentConfig): string {
  const row = (name: string, value: string, from: string) => `  ${name.padEnd(12)} ${value.padEnd(40)} (${from})\n`;
  const show = (value: unknown) => (value === undefined ? '-' : String(value));
  return (
    `bough agent configuration (flags, then environment, then ${fileList(config.files)}, then defaults):\n` +
    row('baseUrl', show(config.baseUrl.value), config.baseUrl.from) +
    row('model', show(config.model.value), config.model.from) +
    row('apiKeyEnv', config.apiKeyEnv.value, config.apiKeyEnv.from) +
    row('apiKey', config.apiKey.value ? 'set (hidden)' : 'not set', config.apiKey.from) +
    row('permissions', config.permissions.value, config.permissions.from) +
    row('maxTurns', show(config.maxTurns.value), config.maxTurns.from) +
    row('timeoutMs', show(config.timeoutMs.value), config.timeoutMs.from) +
    row('retries', show(config.retries.value), config.retries.from) +
    row('stream', String(config.stream.value), config.stream.from) +
    row('profile', config.profile.value, config.profile.from)
  );
}

function fileList(files: ConfigFiles): string {
  const named = [
    ...(files.workspace ? [`${files.workspace} (may only narrow)`] : []),
    ...(files.user ? [files.user] : []),
  ];
  return named.length > 0 ? named.join(', then ') : 'no config file found';
}
