import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A text fingerprint of a directory tree (names, inode, mode, size, mtime, file bytes, link targets) so a test can
 * prove that nothing outside the workspace was created, changed or removed by a call.
 */
export function snapshotTree(dir: string): string {
  const lines: string[] = [];
  const visit = (abs: string, rel: string) => {
    const st = lstatSync(abs);
    const head = `${rel} ${st.ino} ${st.mode.toString(8)} ${st.size} ${st.mtimeMs}`;
    if (st.isSymbolicLink()) lines.push(`${head} -> ${readlinkSync(abs)}`);
    else if (st.isDirectory()) {
      lines.push(`${head} dir`);
      for (const name of readdirSync(abs).sort()) visit(join(abs, name), `${rel}/${name}`);
    } else if (st.isFile()) lines.push(`${head} ${readFileSync(abs, 'base64')}`);
    else lines.push(`${head} special`);
  };
  visit(dir, '.');
  return lines.join('\n');
}
