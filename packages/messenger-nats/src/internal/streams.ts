import { DiscardPolicy, type JetStreamManager, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import type { NatsExchangeLimits } from '../limits.js';
import { brokerError } from './failures.js';
import type { Namespace } from './names.js';

const MS = 1_000_000;

/** Creates the three streams of an exchange when they are missing (file storage; an existing stream is used as is). */
export async function ensureStreams(jsm: JetStreamManager, ns: Namespace, limits: NatsExchangeLimits): Promise<void> {
  const common = { storage: StorageType.File, retention: RetentionPolicy.Limits, discard: DiscardPolicy.Old };
  const streams = [
    {
      ...common,
      name: ns.mailStream,
      subjects: [ns.inboxes],
      max_age: limits.maxAgeMs * MS,
      duplicate_window: limits.duplicateWindowMs * MS,
    },
    { ...common, name: ns.seenStream, subjects: [ns.seens], max_msgs_per_subject: limits.seenRecords },
    { ...common, name: ns.rosterStream, subjects: [ns.rosters], max_msgs_per_subject: 1 },
  ];
  for (const config of streams) {
    try {
      await jsm.streams.info(config.name);
      continue;
    } catch {
      // missing (or unreachable: add reports which)
    }
    try {
      await jsm.streams.add(config);
    } catch (error) {
      // Another process may have created it in between.
      const exists = await jsm.streams.info(config.name).then(
        () => true,
        () => false,
      );
      if (!exists) throw brokerError(error, `creating stream ${config.name}`);
    }
  }
}
