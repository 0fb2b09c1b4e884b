"""Shell completion scripts (``bleukit completion bash|zsh|fish``), written
from the command line's own parser, so that a new command or option is
completed without editing a script.

What completes: commands, each command's options, an option's choices,
files where an option takes files, and names that depend on what is
installed (variants, components: plugins included) asked of ``bleukit``
itself as the user types (``bleukit variants --names``, ``bleukit
components --names KIND``). ``--set`` completes ``KEY=`` and, after it, the
values a key takes. zsh runs the bash function through its ``bashcompinit``.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

#: --set KEY=: the values a key completes (a component kind of ``bleukit
#: components --names``, or fixed words); other keys take numbers
SET_VALUES: dict[str, str | tuple[str, ...]] = {
    "tokenizer": "tokenizer",
    "split": "splitter",
    "ref_length": "reflen",
    "smoothing": "smoothing",
    "lowercase": ("true", "false"),
    "effective_order": ("true", "false"),
    "whitespace": ("true", "false"),
    "eps_smoothing": ("true", "false"),
    "totals": ("exact", "at-least-one"),
    "normalized": ("true", "false"),
    "no_punct": ("true", "false"),
    "asian_support": ("true", "false"),
    "case_sensitive": ("true", "false"),
}


def set_keys() -> tuple[str, ...]:
    """The keys ``--set`` takes: every registered metric's scoring fields."""
    from ..metrics.registry import all_scoring_fields

    return tuple(k for k in all_scoring_fields() if k != "metric")


@dataclass(frozen=True)
class Option:
    flags: tuple[str, ...]
    #: "flag" (no value), "files", "variants", "set", "choices" or "value"
    kind: str
    choices: tuple[str, ...]
    help: str


@dataclass(frozen=True)
class Command:
    name: str
    help: str
    options: tuple[Option, ...]
    #: what a word that is no option's value completes to: "files",
    #: "variants", "choices" (``words``) or "value" (nothing)
    words_kind: str
    words: tuple[str, ...]


def _kind(action: argparse.Action, attr: str) -> str:
    marked = getattr(action, attr, None)
    if marked:
        return str(marked)
    if action.choices is not None:
        return "choices"
    return "flag" if action.nargs == 0 else "value"


def commands(parser: argparse.ArgumentParser, attr: str) -> list[Command]:
    """Every command of the parser, with what its options and words take
    (``attr``: the attribute that marks an option's kind)."""
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helps = {a.dest: a.help or "" for a in sub._choices_actions}
    out = []
    for name, command in sub.choices.items():
        options: list[Option] = []
        words_kind, words = "files", tuple[str, ...]()
        for action in command._actions:
            if action.option_strings:
                if action.help == argparse.SUPPRESS:
                    continue
                choices = tuple(map(str, action.choices or ()))
                kind = _kind(action, attr)
                options.append(
                    Option(tuple(action.option_strings), kind, choices, action.help or "")
                )
            elif isinstance(action, argparse._SubParsersAction):
                words_kind, words = "choices", tuple(action.choices)
            else:
                words_kind = _kind(action, attr)
                words = tuple(map(str, action.choices or ()))
        if name == "sacrebleu":  # its own parser: files (the references)
            options.append(Option(("-i", "--input"), "files", (), "hypothesis files"))
        out.append(Command(name, helps.get(name, ""), tuple(options), words_kind, words))
    return out


def script(shell: str, parser: argparse.ArgumentParser, attr: str) -> str:
    """The completion script for ``shell``."""
    found = commands(parser, attr)
    if shell == "fish":
        return _fish(found)
    body = _bash(found)
    if shell == "zsh":
        return (
            '# zsh completion for bleukit: eval "$(bleukit completion zsh)" in ~/.zshrc\n'
            "autoload -U +X compinit && compinit\n"
            "autoload -U +X bashcompinit && bashcompinit\n" + body
        )
    return '# bash completion for bleukit: eval "$(bleukit completion bash)" in ~/.bashrc\n' + body


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _bash(found: list[Command]) -> str:
    value_cases = []
    option_cases = []
    word_cases = []
    for c in found:
        for o in c.options:
            if o.kind == "flag":
                continue
            patterns = "|".join(_quote(f"{c.name} {flag}") for flag in o.flags)
            action = {
                "files": "_bleukit_files",
                "variants": "_bleukit_variants",
                "set": "_bleukit_set",
                "choices": f"_bleukit_words {_quote(' '.join(o.choices))}",
            }.get(o.kind, ":")
            value_cases.append(f"        {patterns}) {action}; return ;;")
        flags = " ".join(f for o in c.options for f in o.flags)
        option_cases.append(f"            {c.name}) _bleukit_words {_quote(flags + ' --help')} ;;")
        words = {
            "variants": "_bleukit_variants",
            "files": "_bleukit_files",
            "choices": f"_bleukit_words {_quote(' '.join(c.words))}",
        }.get(c.words_kind, ":")
        word_cases.append(f"        {c.name}) {words} ;;")
    names = " ".join(c.name for c in found)
    set_cases = []
    for key, values in SET_VALUES.items():
        source = (
            f"bleukit components --names {values} 2>/dev/null"
            if isinstance(values, str)
            else f"printf '%s\\n' {' '.join(values)}"
        )
        set_cases.append(f"        {key}) values=$({source}) ;;")
    return f"""\
_bleukit_words() {{ COMPREPLY=($(compgen -W "$1" -- "$cur")); }}
_bleukit_files() {{ COMPREPLY=($(compgen -f -- "$cur")); }}
_bleukit_variants() {{
    COMPREPLY=($(compgen -W "$(bleukit variants --names 2>/dev/null)" -- "$cur")
               $(compgen -d -- "$cur") $(compgen -f -X '!*.y*ml' -- "$cur"))
}}
_bleukit_set() {{
    local key=${{cur%%=*}} values
    if [[ $cur != *=* ]]; then
        COMPREPLY=($(compgen -S = -W {_quote(" ".join(set_keys()))} -- "$cur"))
        compopt -o nospace 2>/dev/null
        return
    fi
    case $key in
{chr(10).join(set_cases)}
        *) values= ;;
    esac
    COMPREPLY=($(compgen -W "$values" -- "${{cur#*=}}"))
    # bash replaces only what follows the = (a word break there); zsh the word
    [[ $COMP_WORDBREAKS == *=* ]] || COMPREPLY=("${{COMPREPLY[@]/#/$key=}}")
}}
_bleukit() {{
    # the words from the line itself: COMP_WORDS is also cut at = and :
    # (zsh runs this under its sh emulation: words split, arrays from 0)
    local line=${{COMP_LINE:0:$COMP_POINT}} words cur prev cmd= i n
    set -f
    words=($line)
    set +f
    [[ $line == *[[:space:]] ]] && words+=("")
    n=${{#words[@]}}
    cur=${{words[n-1]}} prev=${{words[n-2]}}
    for ((i = 1; i < n - 1; i++)); do
        case ${{words[i]}} in -*) ;; *) cmd=${{words[i]}}; break ;; esac
    done
    if [[ -z $cmd ]]; then
        _bleukit_words {_quote(names + " --version --help")}
        return
    fi
    case "$cmd $prev" in
{chr(10).join(value_cases)}
    esac
    if [[ $cur == -* ]]; then
        case $cmd in
{chr(10).join(option_cases)}
        esac
        return
    fi
    case $cmd in
{chr(10).join(word_cases)}
    esac
}}
complete -o filenames -F _bleukit bleukit
"""


def _fish_flags(flags: tuple[str, ...]) -> str:
    out = []
    for flag in flags:
        if flag.startswith("--"):
            out.append(f"-l {flag[2:]}")
        elif len(flag) == 2:
            out.append(f"-s {flag[1]}")
        else:  # -ci: one dash, several letters
            out.append(f"-o {flag[1:]}")
    return " ".join(out)


def _fish(found: list[Command]) -> str:
    lines = [
        "# fish completion for bleukit: bleukit completion fish > "
        "~/.config/fish/completions/bleukit.fish",
        "function __bleukit_set",
        "    set -l token (commandline -ct)",
        "    if not string match -q '*=*' -- $token",
        f"        printf '%s=\\n' {' '.join(set_keys())}",
        "        return",
        "    end",
        "    set -l key (string split -m1 = -- $token)[1]",
        "    switch $key",
    ]
    for key, values in SET_VALUES.items():
        source = (
            f"bleukit components --names {values} 2>/dev/null"
            if isinstance(values, str)
            else f"printf '%s\\n' {' '.join(values)}"
        )
        lines += [f"        case {key}", f"            {source} | string replace -r '^' \"$key=\""]
    lines += [
        "    end",
        "end",
        "function __bleukit_variants",
        "    bleukit variants --names 2>/dev/null",
        "    __fish_complete_suffix .yaml",
        "end",
        "complete -c bleukit -f",
        "complete -c bleukit -n __fish_use_subcommand -l version -d 'print the version and exit'",
    ]
    for c in found:
        lines.append(
            f"complete -c bleukit -n __fish_use_subcommand -a {c.name} -d {_quote(c.help)}"
        )
        when = f"-n '__fish_seen_subcommand_from {c.name}'"
        for o in c.options:
            values = {
                "files": "-r -F",
                "variants": "-x -a '(__bleukit_variants)'",
                "set": "-x -a '(__bleukit_set)'",
                "choices": f"-x -a {_quote(' '.join(o.choices))}",
                "value": "-x",
            }.get(o.kind, "")
            parts = [
                "complete -c bleukit",
                when,
                _fish_flags(o.flags),
                values,
                f"-d {_quote(o.help)}",
            ]
            lines.append(" ".join(p for p in parts if p))
        words = {
            "files": "-F",
            "variants": "-a '(__bleukit_variants)'",
            "choices": f"-a {_quote(' '.join(c.words))}",
        }.get(c.words_kind)
        if words:
            lines.append(f"complete -c bleukit {when} {words}")
    return "\n".join(lines) + "\n"
