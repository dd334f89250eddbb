import picomatch from 'picomatch';
import { failure, type SearchFailure } from '../errors.js';

/**
 * Checks a model-supplied glob before it reaches ripgrep or picomatch: a leading `!` would invert it and a leading
 * `-` could be read as an option, so both are refused rather than interpreted.
 */
export function checkGlob(field: 'include' | 'pattern', glob: string, maxLength: number): SearchFailure | undefined {
  // The find pattern never reaches ripgrep, so a file name starting with '-' is a legitimate thing to look for.
  const dashIsOption = field === 'include';
  const bad = (why: string) =>
    failure('invalid_glob', `The ${field} glob ${JSON.stringify(glob.slice(0, 200))} ${why}`);
  if (glob.length > maxLength) return bad(`is longer than ${maxLength} characters; use a shorter glob.`);
  if (/[\u0000\n\r]/.test(glob)) return bad('contains a NUL or line break, which no file name glob needs.');
  if (glob.startsWith('!')) {
    return bad('starts with "!"; exclusions are not supported here. Give the files to include, such as "*.ts".');
  }
  if (dashIsOption && glob.startsWith('-')) return bad('starts with "-"; a glob is never an option. Remove the dash.');
  try {
    picomatch.makeRe(glob, { strictBrackets: true });
  } catch (error) {
    return bad(`is not a valid glob (${error instanceof Error ? error.message : 'parse error'}).`);
  }
  return undefined;
}
