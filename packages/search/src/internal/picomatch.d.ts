// Minimal typings for the parts of picomatch 4 this package uses (the package ships none and @types is not installed).
declare module 'picomatch' {
  interface PicomatchOptions {
    dot?: boolean;
    nocase?: boolean;
    strictBrackets?: boolean;
  }
  type Matcher = (input: string) => boolean;
  interface Picomatch {
    (glob: string | string[], options?: PicomatchOptions): Matcher;
    makeRe(glob: string, options?: PicomatchOptions): RegExp;
  }
  const picomatch: Picomatch;
  export default picomatch;
}
