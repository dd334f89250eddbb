import { type DialectProfile, dialectTools, isDialectProfile, PROFILE_NEEDS } from '@bough/coding';
import { ToolRegistry } from '@bough/core';
import { type ParsedArgs, UsageError } from '../args.js';

/** The profile `--profile` names (default `full`: bough's own tools); a bad name or `--tools` beside it is refused. */
export function profileOf(args: ParsedArgs): DialectProfile {
  const value = args.flags.get('profile');
  if (value === undefined) return 'full';
  if (typeof value !== 'string' || !isDialectProfile(value)) {
    throw new UsageError('--profile needs one of full, minimal, anthropic, openai, gemini.');
  }
  if (value !== 'full' && args.flags.has('tools')) {
    throw new UsageError(`--profile ${value} serves its own tool set; drop --tools.`);
  }
  return value;
}

/** The arguments with `--tools` set to what a profile's tools call, so the toolkit behind them holds exactly those. */
export function argsForProfile(args: ParsedArgs, profile: DialectProfile): ParsedArgs {
  if (profile === 'full') return args;
  const flags = new Map(args.flags);
  flags.set('tools', PROFILE_NEEDS[profile].join(','));
  return { ...args, flags };
}

/**
 * Wraps a registry builder so each root's toolkit is served through a profile's tools: a registry of its own holding
 * only the dialect tools, whose calls go to the toolkit's registry. `inner` maps a served registry back to its
 * toolkit's, for releasing it.
 */
export function profiledBuild(
  profile: DialectProfile,
  build: (root: string) => ToolRegistry,
  inner: Map<ToolRegistry, ToolRegistry>,
): (root: string) => ToolRegistry {
  if (profile === 'full') return build;
  return (root) => {
    const toolkit = build(root);
    const served = new ToolRegistry();
    served.register(dialectTools(profile, toolkit));
    inner.set(served, toolkit);
    return served;
  };
}
