/**
 * Resource and prompt graph types. They live apart from tools (ADR-0013 Delta 4): they describe content a host can
 * offer, not callable behaviour, and nothing in registration or execution depends on them.
 */
import { ConfigurationError } from './bough-error.js';

/** Broad kinds of resources. */
export type ResourceCategory = 'framework' | 'template' | 'utility' | 'prompt' | 'other';

/** Descriptive metadata for a resource. */
export interface ResourceMeta {
  readonly title?: string;
  readonly domain?: string;
  readonly version?: string;
  readonly tags?: readonly string[];
  readonly description?: string;
}

/** A named piece of content with metadata, addressable by id. */
export interface Resource {
  readonly id: string;
  readonly category: ResourceCategory;
  readonly content: string;
  readonly meta: ResourceMeta;
}

/** A prompt is a resource whose content is a template with `{name}` placeholders. */
export interface Prompt extends Resource {
  readonly category: 'prompt';
  readonly variables: readonly string[];
}

/** Creates a frozen {@link Prompt}, listing the placeholders found in the template. */
export function definePrompt(id: string, template: string, meta: ResourceMeta = {}): Prompt {
  const variables = [...new Set([...template.matchAll(/\{([a-zA-Z_][a-zA-Z0-9_]*)\}/g)].map((m) => m[1] as string))];
  return Object.freeze({
    id,
    category: 'prompt' as const,
    content: template,
    meta: Object.freeze({ ...meta }),
    variables,
  });
}

/** Fills a prompt's placeholders; a missing value is an error rather than a silent empty string. */
export function renderPrompt(prompt: Prompt, values: Readonly<Record<string, string>>): string {
  return prompt.content.replace(/\{([a-zA-Z_][a-zA-Z0-9_]*)\}/g, (whole, key: string) => {
    if (!prompt.variables.includes(key)) return whole;
    const value = values[key];
    if (value === undefined) throw new ConfigurationError(`Prompt ${prompt.id} needs a value for {${key}}.`);
    return value;
  });
}
