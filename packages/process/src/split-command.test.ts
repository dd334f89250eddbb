import { describe, expect, it } from 'vitest';
import { splitCommand } from './split-command.js';

// Written by joining so the linter does not mistake the shell syntax for a forgotten template placeholder.
const BRACED_HOME = ['$', '{HOME}'].join('');

const accepted: Array<[string, string[]]> = [
  ['ls -la', ['ls', '-la']],
  ['  ls   -la  ', ['ls', '-la']],
  ['grep -E "a|b" f', ['grep', '-E', 'a|b', 'f']],
  ["grep -E 'a|b' f", ['grep', '-E', 'a|b', 'f']],
  ['python3 -c "print(1>0)"', ['python3', '-c', 'print(1>0)']],
  ["echo 'a;b'", ['echo', 'a;b']],
  ['echo a\\;b', ['echo', 'a;b']],
  ['echo a\\|b \\&\\& c', ['echo', 'a|b', '&&', 'c']],
  ['echo "a && b"', ['echo', 'a && b']],
  [`echo '$(id)' '\`id\`' '${BRACED_HOME}' '$HOME'`, ['echo', '$(id)', '`id`', BRACED_HOME, '$HOME']],
  ['echo \\$HOME', ['echo', '$HOME']],
  ['echo "\\$HOME costs \\$5"', ['echo', '$HOME costs $5']],
  ['echo "say \\"hi\\""', ['echo', 'say "hi"']],
  ['echo "back\\\\slash"', ['echo', 'back\\slash']],
  ['echo "keep \\n and \\t"', ['echo', 'keep \\n and \\t']],
  ["echo 'single \\n stays'", ['echo', 'single \\n stays']],
  ['echo a\\ b', ['echo', 'a b']],
  ['echo \\\\', ['echo', '\\']],
  ['echo \'\' ""', ['echo', '', '']],
  ['echo a"b"\'c\'d', ['echo', 'abcd']],
  ['echo $ "$" a$ $/', ['echo', '$', '$', 'a$', '$/']],
  ['echo "multi\nline"', ['echo', 'multi\nline']],
  ["echo 'with\r\nCRLF'", ['echo', 'with\r\nCRLF']],
  ['echo one\\\ntwo', ['echo', 'onetwo']],
  ['ls *.ts src/?.js [ab]*', ['ls', '*.ts', 'src/?.js', '[ab]*']],
  ['ls ~ ~/x', ['ls', '~', '~/x']],
  ['find . -name "*.ts" -exec wc -l {} \\;', ['find', '.', '-name', '*.ts', '-exec', 'wc', '-l', '{}', ';']],
  ['echo a#b', ['echo', 'a#b']],
  ['echo hi # a comment; rm -rf /', ['echo', 'hi']],
  ['echo "#not" \'#comment\'', ['echo', '#not', '#comment']],
  ['git log --format="%h %s" -n 3', ['git', 'log', '--format=%h %s', '-n', '3']],
  ['env FOO=bar printenv FOO', ['env', 'FOO=bar', 'printenv', 'FOO']],
  ['echo "{a,b}" \'{1..3}\' \\{x,y}', ['echo', '{a,b}', '{1..3}', '{x,y}']],
  ['echo {} {a} a,b', ['echo', '{}', '{a}', 'a,b']],
  ['echo $"plain"', ['echo', 'plain']],
  ['echo "it\'s"', ['echo', "it's"]],
  ['printf "%s\\n" x', ['printf', '%s\\n', 'x']],
  ['echo 日本語 "é€😀"', ['echo', '日本語', 'é€😀']],
];

const operators: Array<[string, string]> = [
  ['cd src && ls', '&&'],
  ['make || true', '||'],
  ['echo a; echo b', ';'],
  ['echo a;echo b', ';'],
  ['sleep 5 &', '&'],
  ['cat f|grep x', '|'],
  ['cat f | grep x', '|'],
  ['cmd |& tee log', '|&'],
  ['echo a > f', '>'],
  ['echo a>f', '>'],
  ['echo a >> f', '>>'],
  ['cmd 2>&1', '>&'],
  ['cmd &> log', '&>'],
  ['sort < f', '<'],
  ['cat <<EOF', '<<'],
  ['cat <<< word', '<<<'],
  ['echo a\nrm -rf x', 'newline'],
  ['echo a\rrm -rf x', 'carriage return'],
  ['echo a\r\n', 'carriage return'],
  ['(cd x; ls)', '('],
  ['echo a)', ')'],
  ['echo hi # comment\nrm x', 'newline'],
];

const substitutions = ['echo $(id)', 'echo "$(id)"', 'echo `id`', 'echo "`id`"', 'echo $((1+2))', 'echo a$(id)b'];

const variables = [
  'echo $HOME',
  `echo ${BRACED_HOME}`,
  'echo "$HOME"',
  `echo "${BRACED_HOME}/x"`,
  'echo $1',
  'echo $?',
  'echo $$',
  'echo "pre$USER"',
  'rm -rf $UNSET/',
];

describe('splitCommand', () => {
  it.each(accepted)('splits %j', (command, argv) => {
    expect(splitCommand(command)).toEqual({ success: true, argv });
  });

  it.each(operators)('refuses the unquoted operator in %j', (command, operator) => {
    const result = splitCommand(command);
    expect(result).toMatchObject({ success: false, error_code: 'shell_operator' });
    if (!result.success) expect(result.error).toContain(`\`${operator}\``);
  });

  it.each(substitutions)('refuses command substitution in %j', (command) => {
    const result = splitCommand(command);
    expect(result).toMatchObject({ success: false, error_code: 'shell_operator' });
    if (!result.success) expect(result.error).toMatch(/command substitution/);
  });

  it.each(variables)('refuses variable expansion in %j and says to pass the value literally', (command) => {
    const result = splitCommand(command);
    expect(result).toMatchObject({ success: false, error_code: 'shell_operator' });
    if (!result.success) expect(result.error).toMatch(/Write the value itself/);
  });

  it.each(['echo {a,b}', 'touch f{1..3}', 'cp x.{js,ts} y'])('refuses brace expansion in %j', (command) => {
    expect(splitCommand(command)).toMatchObject({ success: false, error_code: 'shell_operator' });
  });

  it.each(["echo 'open", 'echo "open', 'echo "a\\"', 'echo end\\', "echo $'a\\n'"])('refuses %j', (command) => {
    const result = splitCommand(command);
    expect(result.success).toBe(false);
    if (!result.success) expect(['malformed_command', 'shell_operator']).toContain(result.error_code);
  });

  it.each(['', '   ', '\t', '# only a comment'])('calls %j empty', (command) => {
    expect(splitCommand(command)).toMatchObject({ success: false, error_code: 'empty_command' });
  });

  it('refuses a NUL byte and a leading assignment', () => {
    expect(splitCommand('echo a\0b')).toMatchObject({ error_code: 'malformed_command' });
    const assignment = splitCommand('FOO=1 make');
    expect(assignment).toMatchObject({ error_code: 'shell_operator' });
    if (!assignment.success) expect(assignment.error).toContain('env FOO=value');
  });

  it('gives actionable advice for the common mistakes', () => {
    const advice = (command: string) => {
      const result = splitCommand(command);
      return result.success ? '' : result.error;
    };
    expect(advice('cd src && npm test')).toMatch(/cwd field/);
    expect(advice('npm test && npm run lint')).toMatch(/one per call/);
    // Every chaining refusal names both ways out: one command per call, and cwd instead of cd.
    for (const chained of ['npm test && npm run lint', 'a; b', 'a || b', 'a\nb', 'cd src && npm test']) {
      expect(advice(chained)).toMatch(/one per call/);
      expect(advice(chained)).toMatch(/cwd field/);
    }
    // A cd later in the chain still leads with cwd.
    expect(advice('npm ci && cd pkg && npm test')).toMatch(/^[^.]*\. Instead of `cd DIR/);
    expect(advice('echo x > out.txt')).toMatch(/editor tool/);
    expect(advice('cat f | head')).toMatch(/head -n 20 FILE/);
  });
});
