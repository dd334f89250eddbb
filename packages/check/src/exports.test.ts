import { expect, it } from 'vitest';

it('exports exactly these names, so every change to the public surface is deliberate', async () => {
  expect(Object.keys(await import('./index.js')).sort()).toMatchInlineSnapshot(`
    [
      "CODE_CHECK_ERROR_CODES",
      "CODE_CHECK_LIMITS",
      "CheckCache",
      "CodeCheckFailure",
      "CodeCheckRequest",
      "CodeCheckResponse",
      "CodeCheckSuccess",
      "CodeDiagnostic",
      "DEFAULT_CODE_CHECK_LIMITS",
      "codeCheckProvider",
      "createCodeCheckTool",
      "diagnosticLine",
      "fromLspDiagnostic",
      "handleCodeCheck",
      "headline",
      "resolveCodeCheckLimits",
    ]
  `);
});
