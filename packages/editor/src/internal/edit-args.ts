/** Arguments of the `edit` action after schema validation. */
export interface EditArgs {
  filePath: string;
  oldString: string | undefined;
  newString: string | undefined;
  replaceAll: boolean;
  /** Try the fuzzy tiers when the exact text is not found. */
  fuzzy: boolean;
  /** Run every check and build the response, but write nothing. */
  dryRun: boolean;
}
