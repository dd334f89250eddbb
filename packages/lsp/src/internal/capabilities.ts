import type { ClientCapabilities } from 'vscode-languageserver-protocol/node';

/**
 * What this client tells a server it understands. Versioned diagnostics are what lets `diagnostics()` wait for the
 * exact version it sent; hierarchical symbols give outlines with their nesting; watched-file changes are how the
 * client reports writes made by commands and formatters.
 */
export const CLIENT_CAPABILITIES: ClientCapabilities = {
  textDocument: {
    synchronization: { didSave: false, willSave: false, willSaveWaitUntil: false, dynamicRegistration: false },
    publishDiagnostics: { versionSupport: true, relatedInformation: false },
    documentSymbol: { hierarchicalDocumentSymbolSupport: true },
    definition: { linkSupport: false },
    references: {},
    hover: { contentFormat: ['plaintext', 'markdown'] },
    rename: { prepareSupport: false },
  },
  workspace: {
    workspaceFolders: true,
    configuration: true,
    didChangeWatchedFiles: { dynamicRegistration: false },
    symbol: {},
    workspaceEdit: { documentChanges: true },
  },
  window: { workDoneProgress: false },
  general: { positionEncodings: ['utf-16'] },
};
