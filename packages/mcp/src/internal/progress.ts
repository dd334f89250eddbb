import type { ToolProgress } from '@bough/core';
import type { Notification, ProgressToken } from '@modelcontextprotocol/server';

/**
 * Turns a tool's progress reports into `notifications/progress` for one call: the progress value always increases
 * (MCP requires it; a report without a count counts reports), and at most one notification leaves per `intervalMs`.
 * A report inside the interval is kept and sent when the interval ends, so the latest word is never lost; `stop`
 * drops whatever is still waiting once the call has answered.
 */
export function progressNotifier(
  token: ProgressToken,
  intervalMs: number,
  send: (notification: Notification) => Promise<void>,
): { report: (update: ToolProgress) => void; stop: () => void } {
  let last = 0;
  let sentAt = Number.NEGATIVE_INFINITY;
  let waiting: ToolProgress | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const emit = (update: ToolProgress) => {
    last = typeof update.completed === 'number' && update.completed > last ? update.completed : last + 1;
    sentAt = Date.now();
    void send({
      method: 'notifications/progress',
      params: {
        progressToken: token,
        progress: last,
        ...(typeof update.total === 'number' ? { total: update.total } : {}),
        ...(update.message ? { message: update.message } : {}),
      },
    }).catch(() => {});
  };
  const flush = () => {
    timer = undefined;
    if (stopped || !waiting) return;
    const update = waiting;
    waiting = undefined;
    emit(update);
  };
  return {
    report: (update) => {
      if (stopped) return;
      const wait = sentAt + intervalMs - Date.now();
      if (wait <= 0 && !timer) return emit(update);
      waiting = update;
      timer ??= setTimeout(flush, Math.max(0, wait));
    },
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
