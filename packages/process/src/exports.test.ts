import { expect, it } from 'vitest';

it('exports exactly these names, so every change to the public surface is deliberate', async () => {
  expect(Object.keys(await import('./index.js')).sort()).toMatchInlineSnapshot(`
    [
      "DEFAULT_ENV_ALLOWLIST",
      "DEFAULT_PROCESS_LIMITS",
      "NON_INTERACTIVE_ENV",
      "PROCESS_ERROR_CODES",
      "SECRET_NAME_FRAGMENTS",
      "buildEnv",
      "checkSandboxSettings",
      "clampTimeout",
      "isSecretEnvName",
      "isSecretEnvValue",
      "openSandbox",
      "processFailure",
      "runProcess",
      "sandboxSupport",
      "splitCommand",
      "startProcess",
    ]
  `);
});

it('keeps the git runner shared with sibling packages on the internal entry, and only there', async () => {
  const internal = Object.keys(await import('./shared-internals.js')).sort();
  expect(internal).toMatchInlineSnapshot(`
    [
      "hardenedGitArgv",
      "hardenedGitEnv",
      "runHardenedGit",
    ]
  `);
  const publicNames = Object.keys(await import('./index.js'));
  expect(internal.filter((name) => publicNames.includes(name))).toEqual([]);
});
