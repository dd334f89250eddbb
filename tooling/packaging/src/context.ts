/** What the global setup hands every packaging test file (through vitest's provide/inject). */
export interface PackagingContext {
  /** The temp root of this run: registry, tarballs, npm cache and the try-out projects all live under it. */
  readonly tmp: string;
  /** An npm user config that points at the local registry (with a token that can publish to it). */
  readonly npmrc: string;
  /** npm's cache for this run, shared by every install (a tarball is fetched from the uplink once). */
  readonly npmCache: string;
  /** Package name → path of its `pnpm pack` tarball. */
  readonly tarballs: Readonly<Record<string, string>>;
}

declare module 'vitest' {
  export interface ProvidedContext {
    packaging: PackagingContext;
  }
}

/** The environment for npm: only our user config counts, npm's cache is the run's own. */
export function npmEnv(context: PackagingContext): NodeJS.ProcessEnv {
  // pnpm's and npm's settings from the calling environment are left out, so nothing points installs elsewhere; so is
  // NODE_PATH (pnpm sets it to the monorepo's modules, which would let a user project resolve what it never installed).
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(npm|pnpm)_/i.test(key) && key !== 'NODE_PATH'),
  );
  return {
    ...env,
    npm_config_userconfig: context.npmrc,
    npm_config_cache: context.npmCache,
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
}
