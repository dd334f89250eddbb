import { sandboxSupport } from '@bough/process';

/**
 * Whether commands will run inside the OS sandbox: the mode is `auto` or `required` and bubblewrap works here (an
 * `auto` that falls back to plain runs does not count).
 */
export function commandsSandboxed(
  mode: string | undefined,
  support: { readonly available: boolean } = sandboxSupport(),
): boolean {
  return (mode === 'auto' || mode === 'required') && support.available;
}
