# bash completion for linkd: its subcommands and their options, the app names and URL schemes of the
# installed apps.d folders (from `linkd completions --list apps|schemes`), folders for --config and files
# for --socket. Links get no completion. `linkd completions bash` prints this script.

# COMPREPLY: the lines of standard input that start with $cur, quoted for the command line.
_linkd_lines()
{
    local line
    COMPREPLY=()
    while IFS= read -r line; do
        [[ -n $line && $line == "$cur"* ]] || continue
        printf -v line %q "$line"
        COMPREPLY+=("$line")
    done
}

_linkd()
{
    local cur prev words cword split=false
    if declare -F _init_completion >/dev/null; then
        _init_completion -s || return
    else
        # Without bash-completion, `--opt=value` arrives as three words: --opt, = and value.
        words=("${COMP_WORDS[@]}") cword=$COMP_CWORD
        cur=${words[cword]} prev=${words[cword - 1]}
        if [[ $cur == = ]]; then
            cur= split=true
        elif [[ $prev == = ]] && ((cword > 2)); then
            prev=${words[cword - 2]} split=true
        fi
    fi
    local linkd=${words[0]} command=${words[1]-} i ended=false
    local commands='open parse route check register unregister status daemon reset confirm login completions'
    for ((i = 2; i < cword; i++)); do
        [[ ${words[i]} == -- ]] && ended=true
    done

    if ((cword == 1)); then
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W '-h --help --version' -- "$cur"))
        else
            COMPREPLY=($(compgen -W "$commands" -- "$cur"))
        fi
        return
    fi

    # The value of an option.
    if ! $ended; then
        case $prev in
            --config)
                if declare -F _filedir >/dev/null; then _filedir -d; else
                    compopt -o filenames 2>/dev/null
                    COMPREPLY=($(compgen -d -- "$cur"))
                fi
                return ;;
            --socket)
                if declare -F _filedir >/dev/null; then _filedir; else
                    compopt -o filenames 2>/dev/null
                    COMPREPLY=($(compgen -f -- "$cur"))
                fi
                return ;;
            --app)
                _linkd_lines < <("$linkd" completions --list apps 2>/dev/null </dev/null)
                return ;;
            --list)
                COMPREPLY=($(compgen -W 'apps schemes' -- "$cur"))
                return ;;
            --provider)
                COMPREPLY=($(compgen -W 'apple github google gitlab azure' -- "$cur"))
                return ;;
            --idle-exit | --email)
                return ;;
        esac
    fi
    $split && return

    local options= values=
    case $command in
        -h | --help | help)
            ((cword == 2)) && COMPREPLY=($(compgen -W "$commands" -- "$cur"))
            return ;;
        open) options='--json --password-stdin --code-stdin --web -' ;;
        parse) options='--json --reveal -' ;;
        route) options='--json --reveal --config -' ;;
        check) options='--json --config' ;;
        register | unregister) options='--system --web' ;;
        status) options='--json' ;;
        daemon) options='--socket --idle-exit' ;;
        reset)
            # The action comes first (`linkd reset request --app NAME --email ADDR`), or the options do (`linkd reset --code …`).
            if [[ ${words[2]} == request ]]; then
                options='--app --email --password-stdin'
            else
                options='--app --email --code --code-stdin --password-stdin'
                ((cword == 2)) && values=request
            fi ;;
        confirm)
            # The action comes first: `linkd confirm resend --app NAME --email ADDR`.
            if ((cword == 2)); then values=resend; elif [[ ${words[2]} == resend ]]; then options='--app --email --retry'; fi ;;
        login) options='--app --email --provider --code --code-stdin' ;;
        completions)
            options='--list'
            ((cword == 2)) && values='bash zsh fish' ;;
        *) return ;;
    esac
    if [[ $cur == -* ]] && ! $ended; then
        # `-` (a link per line from standard input) is offered with the options, once a `-` is typed.
        COMPREPLY=($(compgen -W "$options -h --help" -- "$cur"))
    elif [[ $command == register || $command == unregister ]]; then
        _linkd_lines < <("$linkd" completions --list schemes 2>/dev/null </dev/null)
    else
        COMPREPLY=($(compgen -W "$values" -- "$cur"))
    fi
}

complete -F _linkd linkd
