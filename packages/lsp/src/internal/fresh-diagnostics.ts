import { type LspFailure, lspFailure } from '../errors.js';
import type { LspLimits } from '../limits.js';
import type { LspDiagnosticsResult } from '../results.js';
import { toDiagnostic } from './convert.js';
import type { PublishedDiagnostics } from './diagnostic-store.js';
import type { LanguageSession } from './language-session.js';

/** A document the server holds: the version the client just synced and whether this call sent it. */
export interface SyncedDocument {
  readonly session: LanguageSession;
  readonly uri: string;
  readonly relative: string;
  readonly version: number;
  readonly sent: boolean;
}

/**
 * The diagnostics of a synced document, as fresh as the protocol lets a client know:
 * - its text changed (or it was just opened): wait up to `diagnosticsWaitMs` for a publish of exactly that version;
 * - its text did not change but other files did since its last publish (an edit, a reported write): wait up to
 *   `republishWaitMs` for the server to publish it again, since callers break when what they call changes;
 * - otherwise the latest publish answers at once.
 */
export async function freshDiagnostics(
  doc: SyncedDocument,
  limits: LspLimits,
): Promise<LspDiagnosticsResult | LspFailure> {
  const { session, uri, version } = doc;
  const answer = (got: PublishedDiagnostics, fresh: boolean, note?: string): LspDiagnosticsResult => ({
    success: true,
    file: doc.relative,
    version,
    fresh,
    diagnostics: got.diagnostics.map(toDiagnostic),
    ...(note ? { note } : {}),
  });
  const latest = session.latestDiagnostics(uri);
  if (!doc.sent && latest && latest.version >= version) {
    if (latest.epoch >= session.changeEpoch) return answer(latest, true);
    const again = await session.diagnosticsFor(uri, version, limits.republishWaitMs, session.changeEpoch);
    if (again) return answer(again, true);
    return answer(
      session.latestDiagnostics(uri) ?? latest,
      true,
      `Other files changed since the server last checked this one and it did not publish again within ${limits.republishWaitMs} ms; these are its latest diagnostics for this version.`,
    );
  }
  const wait = limits.diagnosticsWaitMs;
  const got = await session.diagnosticsFor(uri, version, wait);
  if (got) return answer(got, true);
  if (!session.alive) return lspFailure('server_crashed', `The ${session.server.id} language server ended.`);
  const older = session.latestDiagnostics(uri);
  if (!older) {
    return lspFailure(
      'timeout',
      `The ${session.server.id} language server published no diagnostics for ${doc.relative} within ${wait} ms.`,
    );
  }
  return answer(
    older,
    false,
    `No diagnostics for version ${version} arrived within ${wait} ms; these are for version ${older.version}.`,
  );
}
