import type { CommandModule } from 'yargs';
import { UsageError } from '../../errors.js';
import type { Deps, GlobalArgs } from '../context.js';

const BIN = 'kubectl-crossplane_rbac';

interface CompletionArgs extends GlobalArgs {
  readonly shell: string;
}

/** Scripts that call back into the binary's hidden `--get-yargs-completions` for every completion. */
function script(shell: string): string {
  switch (shell) {
    case 'bash':
      return `# bash completion for ${BIN}; add to ~/.bashrc:  source <(${BIN} completion bash)
_kubectl_crossplane_rbac_complete() {
  local cur=\${COMP_WORDS[COMP_CWORD]}
  local IFS=$'\\n'
  COMPREPLY=( $(${BIN} --get-yargs-completions "\${COMP_WORDS[@]:1}" 2>/dev/null) )
  if [ \${#COMPREPLY[@]} -eq 0 ]; then COMPREPLY=( $(compgen -f -- "$cur") ); fi
}
complete -o default -F _kubectl_crossplane_rbac_complete ${BIN}
`;
    case 'zsh':
      return `#compdef ${BIN}
# zsh completion for ${BIN}; add to ~/.zshrc:  source <(${BIN} completion zsh)
_kubectl_crossplane_rbac() {
  local -a reply
  reply=(\${(f)"$(${BIN} --get-yargs-completions "\${words[@]:1}" 2>/dev/null)"})
  _describe 'values' reply
}
compdef _kubectl_crossplane_rbac ${BIN}
`;
    case 'fish':
      return `# fish completion for ${BIN}; add to ~/.config/fish/config.fish:  ${BIN} completion fish | source
function __kubectl_crossplane_rbac_complete
    set -l words (commandline -opc)[2..-1] (commandline -ct)
    ${BIN} __complete $words 2>/dev/null | string match -v -r '^:'
end
complete -c ${BIN} -f -a '(__kubectl_crossplane_rbac_complete)'
`;
    case 'kubectl':
      return `#!/usr/bin/env sh
# Completion for "kubectl crossplane-rbac ..." (kubectl 1.26+): save as an executable named
# kubectl_complete-crossplane_rbac somewhere on PATH.
exec ${BIN} __complete "$@"
`;
    default:
      throw new UsageError(`unknown shell "${shell}"`, { hint: 'use one of: bash, zsh, fish, kubectl' });
  }
}

export function completionCommand(deps: Deps): CommandModule<GlobalArgs, CompletionArgs> {
  return {
    command: 'completion [shell]',
    describe: 'Print a shell completion script (bash, zsh, fish, or kubectl for kubectl plugin completion)',
    builder: (y) =>
      y
        .positional('shell', { type: 'string', default: 'bash', describe: 'bash, zsh, fish or kubectl' })
        // No -o: check-args.ts refuses it (flag-table.ts's REFUSED), so --help does not list it.
        .hide('output'),
    handler: (args) => {
      deps.io.stdout.write(script(args.shell));
    },
  };
}
