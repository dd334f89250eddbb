// What to tell a model when its command used shell syntax that a shell-free runner cannot honour.

const QUOTE_TIP = "To pass the character itself as an argument, put it in quotes (for example 'a|b').";

/** Returns the advice for an unquoted control operator such as `&&`, `|` or `>`. */
export function operatorHint(operator: string, command: string): string {
  const where = `The command contains the shell operator \`${operator}\`, but commands run without a shell.`;
  switch (operator) {
    case '&&':
    case '||':
    case ';':
    case 'newline':
    case 'carriage return':
      // `cd` anywhere in the chain (not only first) means the model wanted another directory: lead with cwd.
      if (/(?:^|[;&|\n\r(]\s*)cd(?:\s|$)/.test(command)) {
        return `${where} Instead of \`cd DIR && ...\`, set the cwd field to DIR and send only the command; run any other commands one per call. ${QUOTE_TIP}`;
      }
      return `${where} Run the commands one per call, checking each result before the next; to run one in another directory, set the cwd field instead of using \`cd\`. ${QUOTE_TIP}`;
    case '|':
    case '|&':
      return `${where} Pipes are not available: run the first command alone (its output is capped head and tail), or use a program option that limits output, such as \`grep -m 20\` or \`head -n 20 FILE\`. ${QUOTE_TIP}`;
    case '>':
    case '>>':
    case '>|':
    case '&>':
    case '>&':
      return `${where} Output redirection is not available: create or change files with the editor tool, or use the program's own output option (such as \`--output FILE\`). stdout and stderr are already returned separately. ${QUOTE_TIP}`;
    case '<':
    case '<<':
    case '<<<':
    case '<&':
      return `${where} Input redirection is not available and stdin is always empty: pass the file name as an argument instead. ${QUOTE_TIP}`;
    case '&':
      return `${where} Background jobs are not available: every command runs in the foreground with a timeout, and anything it leaves running is stopped when it finishes. ${QUOTE_TIP}`;
    case '(':
    case ')':
      return `${where} Subshells and grouping are not available: run one plain command per call. ${QUOTE_TIP}`;
    default:
      return `${where} ${QUOTE_TIP}`;
  }
}

/** Advice for `$(...)` or backticks. */
export function substitutionHint(form: string): string {
  return `The command uses command substitution (${form}), which needs a shell. Run the inner command in its own call, then pass its output literally. To pass the characters themselves, wrap them in single quotes.`;
}

/** Advice for `$NAME`, `${NAME}` and the special parameters. */
export function variableHint(form: string): string {
  return `The command refers to the shell variable ${form}, but nothing is expanded here. Write the value itself into the command, or put the text in single quotes to pass a literal '$'. Extra environment variables can be set with \`env NAME=value PROGRAM ...\`.`;
}

/** Advice for a leading `NAME=value` word, which a shell would read as an environment assignment. */
export function assignmentHint(word: string): string {
  const name = word.slice(0, word.indexOf('='));
  return `The command starts with \`${name}=...\`, which a shell treats as setting a variable. Run it as \`env ${name}=value PROGRAM ARGS\` instead.`;
}

/** Advice for unquoted brace expansion such as `{a,b}` or `{1..3}`. */
export function braceHint(): string {
  return 'The command uses brace expansion ({a,b} or {1..3}), which needs a shell. Write each argument out in full, or quote the braces to pass them literally.';
}
