/**
 * What the command scope knows about programs. A grant for a program never covers running a different
 * one, so programs that run another command, or code, given in their arguments are granted only as the
 * exact command shown.
 */

const setOf = (names: string): ReadonlySet<string> => new Set(names.split(/\s+/).filter((n) => n !== ''));

/** Programs that run another command named in their arguments (a grant would cover any program). */
export const RUNS_COMMANDS = setOf(`
  sudo doas su pkexec runuser sg newgrp env command builtin exec eval xargs nohup nice ionice timeout time
  setsid stdbuf unbuffer chroot unshare nsenter setpriv taskset chrt numactl cgexec systemd-run firejail
  bwrap proot faketime catchsegv strace ltrace gdb valgrind watch flock parallel busybox script expect
  rlwrap tmux screen ssh sshpass dbus-launch xvfb-run entr find fd rsync tar socat nc ncat at batch crontab
  vi vim nvim view emacs nano ed ex less more man
`);

/**
 * The only shell builtins granted by name. The others evaluate text as code (eval, source, trap) or
 * evaluate array subscripts, where a quoted `$(…)` runs (let, declare, read, printf -v, test -v…).
 */
export const PLAIN_BUILTINS = setOf('cd echo pwd true false');

/** bash's builtins and reserved words: a program word that is one of these is bash's own. */
export const SHELL_OWN = setOf(`
  . : [ alias bg bind break builtin caller cd command compgen complete compopt continue declare dirs disown
  echo enable eval exec exit export false fc fg getopts hash help history jobs kill let local logout mapfile
  popd printf pushd pwd read readarray readonly return set shift shopt source suspend test times trap true
  type typeset ulimit umask unalias unset wait if then else elif fi case esac for select while until do done
  in function time coproc
`);

/** Interpreters: granted with the script they run (`python3 manage.py …`), never with code given inline. */
export const INTERPRETERS = setOf(`
  sh bash zsh dash ksh mksh ash fish csh tcsh node nodejs perl ruby php lua luajit tclsh wish Rscript julia
  pwsh osascript awk gawk mawk nawk sed pypy pypy3
`);

/** `python`, `python3`, `python3.12`… */
export const PYTHON = /^python[0-9.]*$/;

/** How a program with subcommands is granted. */
export interface Subcommands {
  /** Subcommands that run other commands or code: granted only as the exact command. */
  readonly runs: ReadonlySet<string>;
  /** Subcommands whose next word, a project script, is part of the grant too (`npm run build …`). */
  readonly scripts: ReadonlySet<string>;
}

const sub = (runs = '', scripts = ''): Subcommands => ({ runs: setOf(runs), scripts: setOf(scripts) });

/** Programs with subcommands: a grant names the subcommand too (`git status …`). */
export const SUBCOMMANDS: ReadonlyMap<string, Subcommands> = new Map([
  ['git', sub('bisect filter-branch submodule difftool mergetool rebase config daemon')],
  ['npm', sub('exec x init create', 'run run-script')],
  ['pnpm', sub('exec dlx x create init', 'run')],
  ['yarn', sub('exec dlx create init', 'run')],
  ['bun', sub('exec x create init', 'run')],
  ['deno', sub('eval run repl x')],
  ['go', sub('run generate tool')],
  ['docker', sub('run exec compose buildx container debug')],
  ['podman', sub('run exec compose container')],
  ['kubectl', sub('exec run debug attach plugin')],
  ['pipx', sub('run')],
  ['poetry', sub('run shell')],
  ['uv', sub('run tool')],
  ['conda', sub('run')],
  ['gh', sub('extension alias codespace')],
  ['composer', sub('exec run-script')],
  ['rustup', sub('run')],
  ['bundle', sub('exec')],
  ...`npx bunx pnpx uvx cargo helm pip pip3 brew apt apt-get dnf yum apk pacman systemctl terraform tofu
    dotnet mvn gradle gem make just aws gcloud az hg svn toolseam`
    .split(/\s+/)
    .map((name): [string, Subcommands] => [name, sub()]),
]);
