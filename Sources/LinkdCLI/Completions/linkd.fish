# fish completion for linkd: its subcommands and their options, the app names and URL schemes of the
# installed apps.d folders (from `linkd completions --list apps|schemes`), folders for --config and files
# for --socket. Links get no completion. `linkd completions fish` prints this script.

# Prints the names `linkd completions --list $argv[1]` gives (apps or schemes).
function __linkd_list --argument-names what
    set -l linkd (commandline -opc)[1]
    command -q -- $linkd; or return
    command $linkd completions --list $what 2>/dev/null </dev/null
end

# True when the subcommand (the first word after linkd) is one of $argv.
function __linkd_is
    set -l words (commandline -opc)
    set -q words[2]; and contains -- $words[2] $argv
end

# True when the subcommand comes next: right after linkd, or after linkd help (or -h, --help).
function __linkd_needs_command
    set -l words (commandline -opc)
    test (count $words) -eq 1; or begin
        test (count $words) -eq 2; and contains -- $words[2] help -h --help
    end
end

# True when $argv[1] words follow linkd before the one being completed.
function __linkd_words
    test (count (commandline -opc)) -eq (math $argv[1] + 1)
end

# The folders a --config value (`--config DIR` or `--config=DIR`) can name.
function __linkd_directories
    __fish_complete_directories (string replace -r -- '^--config=' '' (commandline -ct))
end

complete -c linkd -f

complete -c linkd -n '__linkd_words 0' -l version -d 'Show the version'
complete -c linkd -n __linkd_needs_command -a open -d 'Hand links to the linkd daemon, starting it if needed'
complete -c linkd -n __linkd_needs_command -a parse -d 'Parse links strictly and print their parts, or why each is refused'
complete -c linkd -n __linkd_needs_command -a route -d 'Parse and route links locally; print each route, or why there is none'
complete -c linkd -n __linkd_needs_command -a check -d 'Check the apps.d configuration and print each problem with its file, line and column'
complete -c linkd -n __linkd_needs_command -a register -d 'Make linkd open links of these schemes (default: every custom scheme in apps.d)'
complete -c linkd -n __linkd_needs_command -a unregister -d 'Stop linkd opening links of these schemes (default: every scheme it registered)'
complete -c linkd -n __linkd_needs_command -a status -d 'Show which schemes open in linkd, whether the daemon can be reached, and the apps loaded'
complete -c linkd -n __linkd_needs_command -a daemon -d "Run the linkd daemon (socket-activated by systemd, or started by 'linkd open')"
complete -c linkd -n __linkd_needs_command -a reset -d "Ask an app's backend to email a password-reset link"
complete -c linkd -n __linkd_needs_command -a confirm -d "Ask an App Services app's backend to confirm an account again"
complete -c linkd -n __linkd_needs_command -a login -d 'Sign in to an app: by an emailed magic link, or with a provider in the browser'
complete -c linkd -n __linkd_needs_command -a completions -d 'Print the shell completion script for bash, zsh or fish'

# linkd and every subcommand take --help.
complete -c linkd -n 'not __linkd_is help -h --help --version' -s h -l help -d 'Show help information'

# Links get no completion; `-` reads one link per line from standard input, offered once a `-` is typed.
complete -c linkd -n '__linkd_is open parse route; and string match -q -- "-*" (commandline -ct)' -a - -d 'Read links from standard input'
complete -c linkd -n '__linkd_is open' -l json -d "Print one JSON object per link: the daemon's answer"
complete -c linkd -n '__linkd_is open' -l password-stdin -d 'Answer a password prompt with one line of standard input'
complete -c linkd -n '__linkd_is open' -l code-stdin -d 'Answer a code prompt (a second factor\'s) with one line of standard input'
complete -c linkd -n '__linkd_is open' -l web -d "The links were clicked: an app's own go to it, the rest to the browser"
complete -c linkd -n '__linkd_is parse' -l json -d 'Print one JSON object per link: the WHATWG URL API fields, or the error'
complete -c linkd -n '__linkd_is parse' -l reveal -d "Print secrets (tokens, codes, keys) instead of '<redacted>'"
complete -c linkd -n '__linkd_is route' -l json -d 'Print one JSON object per link: route, app, action and fields, or the error'
complete -c linkd -n '__linkd_is route' -l reveal -d "Print secrets (tokens, codes, keys) and the whole input instead of '<redacted>'"
complete -c linkd -n '__linkd_is route' -l config -x -a '(__linkd_directories)' -d 'Use only the apps in this apps.d folder'

complete -c linkd -n '__linkd_is check' -l json -d 'Print one JSON object per problem: file, line, column, path and problem'
complete -c linkd -n '__linkd_is check' -l config -x -a '(__linkd_directories)' -d 'Check only the apps in this apps.d folder'

complete -c linkd -n '__linkd_is register unregister' -a '(__linkd_list schemes)' -d 'URL scheme'
complete -c linkd -n '__linkd_is register' -l system -d 'Register for every user (as root)'
complete -c linkd -n '__linkd_is unregister' -l system -d "Undo 'linkd register --system' (as root)"
complete -c linkd -n '__linkd_is register' -l web -d "Take web links: an app's own to the app, the rest to the browser"
complete -c linkd -n '__linkd_is unregister' -l web -d 'Give web links back to the browser linkd replaced'

complete -c linkd -n '__linkd_is status' -l json -d 'Print one JSON object: schemes, socket, systemd units, apps and problems'

complete -c linkd -n '__linkd_is daemon' -l socket -r -F -d 'Listen on this socket instead of $XDG_RUNTIME_DIR/linkd/socket'
complete -c linkd -n '__linkd_is daemon' -l idle-exit -x -d 'Exit after this many seconds without clients (default: 30)'

# The action comes first: linkd reset request --app NAME --email ADDR.
complete -c linkd -n '__linkd_is reset; and __linkd_words 1' -a request -d 'Email a password-reset link'
complete -c linkd -n '__linkd_is reset; and contains -- request (commandline -opc)[3]' -l app -x -a '(__linkd_list apps)' -d 'The app, as its apps.d file names it'
complete -c linkd -n '__linkd_is reset; and contains -- request (commandline -opc)[3]' -l email -x -d "The account's email address"
complete -c linkd -n '__linkd_is reset' -l password-stdin -d 'Read the new password from one line of standard input'
# Or the options come first: linkd reset --code --app NAME --email ADDR.
complete -c linkd -n '__linkd_is reset; and not contains -- request (commandline -opc)[3]' -l code -d 'Reset with the 6-digit code of the reset email instead of its link'
complete -c linkd -n '__linkd_is reset; and not contains -- request (commandline -opc)[3]' -l code-stdin -d 'Read each code from a line of standard input'
complete -c linkd -n '__linkd_is reset; and not contains -- request (commandline -opc)[3]' -l app -x -a '(__linkd_list apps)' -d 'The app, as its apps.d file names it'
complete -c linkd -n '__linkd_is reset; and not contains -- request (commandline -opc)[3]' -l email -x -d "The account's email address"

# The action comes first: linkd confirm resend --app NAME --email ADDR.
complete -c linkd -n '__linkd_is confirm; and __linkd_words 1' -a resend -d 'Confirm an account again'
complete -c linkd -n '__linkd_is confirm; and contains -- resend (commandline -opc)[3]' -l app -x -a '(__linkd_list apps)' -d 'The app, as its apps.d file names it'
complete -c linkd -n '__linkd_is confirm; and contains -- resend (commandline -opc)[3]' -l email -x -d "The account's email address"
complete -c linkd -n '__linkd_is confirm; and contains -- resend (commandline -opc)[3]' -l retry -d "Run the app's custom confirmation function again instead of sending the email"

complete -c linkd -n '__linkd_is login' -l app -x -a '(__linkd_list apps)' -d 'The app, as its apps.d file names it'
complete -c linkd -n '__linkd_is login' -l email -x -d 'Email a magic link to this address'
complete -c linkd -n '__linkd_is login' -l provider -x -a 'apple github google gitlab azure' -d 'Sign in with this OAuth provider in the browser'
complete -c linkd -n '__linkd_is login' -l code -d 'With --email: sign in with the code the email carries'
complete -c linkd -n '__linkd_is login' -l code-stdin -d 'With --code: read the code from a line of standard input'

complete -c linkd -n '__linkd_is completions; and __linkd_words 1' -a 'bash zsh fish'
complete -c linkd -n '__linkd_is completions' -l list -x -a 'apps schemes' -d 'Print the names of the installed apps, or the schemes they claim'
