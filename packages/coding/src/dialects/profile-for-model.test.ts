import { describe, expect, it } from 'vitest';
import { profileForModel } from './profile-for-model.js';

describe('profileForModel: the tool family a model was trained on, from its name', () => {
  it.each([
    ['claude-sonnet-4-5', 'anthropic'],
    ['anthropic/claude-opus-4-1', 'anthropic'],
    ['us.anthropic.claude-3-7-sonnet-20250219-v1:0', 'anthropic'],
    ['Claude-Haiku-4-5', 'anthropic'],
    ['gpt-5', 'openai'],
    ['openai/gpt-4.1-mini', 'openai'],
    ['o3', 'openai'],
    ['o4-mini', 'openai'],
    ['gpt-5-codex', 'openai'],
    ['codex-mini-latest', 'openai'],
    ['gemini-2.5-pro', 'gemini'],
    ['google/gemini-2.5-flash', 'gemini'],
    ['qwen3-coder', 'full'],
    ['llama-3.3-70b', 'full'],
    ['deepseek-chat', 'full'],
    // A name that merely contains a family's letters is not of that family.
    ['my-claude-clone', 'full'],
    ['solo7', 'full'],
    ['', 'full'],
  ])('%s → %s', (model, profile) => {
    expect(profileForModel(model)).toBe(profile);
  });
});
