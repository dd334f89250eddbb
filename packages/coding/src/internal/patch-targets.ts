/** A file a patch would change: `kind` says whether it must already exist (update, delete) or be created or overwritten. */
export interface PatchTarget {
  readonly path: string;
  readonly kind: 'update' | 'delete' | 'add' | 'move_to';
}

const APPLY_PATCH = /^\*\*\* (Update|Delete|Add) File: (.+)$|^\*\*\* Move to: (.+)$/;

/** Strips a unified diff's `a/` or `b/` prefix and a trailing tab with a timestamp, as `diff -u` prints them. */
function diffPath(raw: string): string | undefined {
  const name = raw.replace(/\t.*$/, '').trim();
  if (name === '/dev/null' || name === '') return undefined;
  return /^[ab]\//.test(name) ? name.slice(2) : name;
}

/**
 * Every file a patch names, in the apply_patch format or as a unified diff (`git diff`, `diff -u`). The guard only
 * needs the names: the editor parses and validates the patch itself, and refuses anything malformed.
 */
export function patchTargets(patch: string): PatchTarget[] {
  const targets: PatchTarget[] = [];
  const lines = patch.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const op = APPLY_PATCH.exec(line);
    if (op) {
      if (op[3] !== undefined) targets.push({ path: op[3].trim(), kind: 'move_to' });
      else targets.push({ path: (op[2] as string).trim(), kind: op[1]?.toLowerCase() as 'update' | 'delete' | 'add' });
      continue;
    }
    const next = lines[i + 1];
    if (line.startsWith('--- ') && next?.startsWith('+++ ')) {
      const from = diffPath(line.slice(4));
      const to = diffPath(next.slice(4));
      if (from && to) {
        targets.push({ path: from, kind: 'update' });
        if (to !== from) targets.push({ path: to, kind: 'move_to' });
      } else if (from) targets.push({ path: from, kind: 'delete' });
      else if (to) targets.push({ path: to, kind: 'add' });
      i++;
    }
  }
  return targets;
}
