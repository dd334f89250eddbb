import { ConfigurationError, type Tool, type ToolRegistry } from '@bough/core';
import { geminiProfileTools } from './profile-gemini.js';
import { minimalTools } from './profile-minimal.js';
import { anthropicProfileTools, openaiProfileTools } from './profile-native.js';

/** The tool families a server can offer: bough's own (`full`), or the names and parameters of another harness. */
export const DIALECT_PROFILES = Object.freeze(['full', 'minimal', 'anthropic', 'openai', 'gemini'] as const);
/** One of {@link DIALECT_PROFILES}. */
export type DialectProfile = (typeof DIALECT_PROFILES)[number];

/** The toolkit tools a profile's tools call (the toolkit must hold them). */
export const PROFILE_NEEDS: Readonly<Record<DialectProfile, readonly string[]>> = Object.freeze({
  full: [],
  minimal: ['reader', 'editor', 'bash'],
  anthropic: ['reader', 'editor', 'bash'],
  openai: ['reader', 'editor', 'bash'],
  gemini: ['reader', 'editor', 'bash', 'search'],
});

/** Whether a string names a profile. */
export function isDialectProfile(value: string): value is DialectProfile {
  return (DIALECT_PROFILES as readonly string[]).includes(value);
}

/**
 * The tools of a non-`full` profile, each calling `registry`'s own tools (so the guard, the policy and the sandbox of
 * the toolkit behind it apply). Register them on a registry of their own and serve that one. A registry without one
 * of the profile's {@link PROFILE_NEEDS} is refused here, naming it, rather than on the first call.
 */
export function dialectTools(profile: Exclude<DialectProfile, 'full'>, registry: ToolRegistry): Tool[] {
  const missing = PROFILE_NEEDS[profile].filter((name) => !registry.has(name));
  if (missing.length > 0) {
    throw new ConfigurationError(`The ${profile} profile calls ${missing.join(', ')}; register it on the toolkit.`);
  }
  switch (profile) {
    case 'minimal':
      return minimalTools(registry);
    case 'anthropic':
      return anthropicProfileTools(registry);
    case 'openai':
      return openaiProfileTools(registry);
    case 'gemini':
      return geminiProfileTools(registry);
  }
}
