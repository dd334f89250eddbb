import { readFileSync } from 'node:fs';

/** The CLI's package version, read once from its package.json. */
export const VERSION: string = (() => {
  try {
    const url = new URL('../package.json', import.meta.url);
    return (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
})();
