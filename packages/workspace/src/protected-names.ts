import { globToRegExp } from './glob.js';
/** Which file names hold credentials and must never be read or written by a tool. */
export interface ProtectedNamePolicy {
  /** Exact names (compared case-insensitively). */
  readonly names: readonly string[];
  /** Globs with `*` and `?`, matched against the whole name (case-insensitively). */
  readonly patterns: readonly string[];
  /** Names that would match above but are known to be harmless templates. */
  readonly allow: readonly string[];
}

/** The defaults from SECURITY.md: dotenv files, credential stores and private keys. */
export const DEFAULT_PROTECTED: ProtectedNamePolicy = Object.freeze({
  names: Object.freeze([
    '.env',
    '.netrc',
    '.htpasswd',
    '.pypirc',
    '.npmrc',
    'id_rsa',
    'id_dsa',
    'id_ecdsa',
    'id_ed25519',
  ]),
  patterns: Object.freeze(['.env.*', '*.pem', '*.key', '*.p12', '*.pfx', '*.ppk']),
  allow: Object.freeze(['.env.example', '.env.sample', '.env.template']),
});

/**
 * Folds a name the way permissive filesystems (Windows, case-insensitive macOS volumes) would, so `.ENV`, `.env.`
 * and `.env ` are treated as `.env`; look-alike characters (fullwidth letters) are deliberately not folded.
 */
export function foldName(name: string): string {
  return name
    .normalize('NFC')
    .replace(/[. ]+$/u, '')
    .toLowerCase();
}

const compiled = new WeakMap<ProtectedNamePolicy, (name: string) => boolean>();

function compile(policy: ProtectedNamePolicy): (name: string) => boolean {
  const names = new Set(policy.names.map(foldName));
  const allow = new Set(policy.allow.map(foldName));
  const patterns = policy.patterns.map((pattern) => globToRegExp(foldName(pattern)));
  const decided = new Map<string, boolean>();
  return (name) => {
    let verdict = decided.get(name);
    if (verdict === undefined) {
      const folded = foldName(name);
      verdict = folded !== '' && !allow.has(folded) && (names.has(folded) || patterns.some((re) => re.test(folded)));
      remember(decided, name, verdict);
    }
    return verdict;
  };
}

/**
 * Most entries of most directories are checked again on every listing, and folding a name (Unicode normalisation,
 * then the policy's globs) costs more than looking it up: answers are kept per exact name, forgotten all at once when
 * there are too many.
 */
const MEMO_NAMES = 8192;

function remember(memo: Map<string, boolean>, name: string, verdict: boolean): void {
  if (memo.size >= MEMO_NAMES) memo.clear();
  memo.set(name, verdict);
}

/** True when a single path component names a credential file under the policy (default {@link DEFAULT_PROTECTED}). */
export function isProtectedName(name: string, policy: ProtectedNamePolicy = DEFAULT_PROTECTED): boolean {
  let test = compiled.get(policy);
  if (!test) {
    test = compile(policy);
    compiled.set(policy, test);
  }
  return test(name);
}

/** True when a component is a `.git` directory name (folded), where writes could plant hooks that run later. */
export function isGitDirName(name: string): boolean {
  // Folding never changes a first character into '.', so a name that does not start with one is not '.git'.
  if (name.charCodeAt(0) !== 0x2e) return false;
  let verdict = gitNames.get(name);
  if (verdict === undefined) {
    verdict = foldName(name) === '.git';
    remember(gitNames, name, verdict);
  }
  return verdict;
}

const gitNames = new Map<string, boolean>();
