#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Write disktune(8) to stdout: TEMPLATE's hand-written text plus the synopsis, device text and
# every command's options taken from the binary's own --help, so the page cannot drift from it.
# usage: man_page.sh DISKTUNE TEMPLATE VERSION. A command without a "describe" line in TEMPLATE
# is an error (exit 1): a new command needs its sentence in the page.
set -euo pipefail
exe=$1 template=$2 version=$3

# escape: troff-safe text (a backslash printed as itself, hyphens as minus signs).
escape() { sed -e 's/\\/\\e/g' -e 's/-/\\-/g'; }
top=$("$exe" --help | escape)
commands=$(awk '/^usage:/ { u = 1; next } u && /^[^ ]/ { exit } u && /^  [a-z]/ { print $1 }' <<<"$top")
[ -n "$commands" ] || { echo "man_page.sh: no commands in $exe --help" >&2; exit 1; }

usage_of() {  # usage_of CMD: its arguments in the top help, on one line
  awk -v c="$1" '/^usage:/ { u = 1; next } u && /^[^ ]/ { exit }
    u && /^  [a-z]/ { p = ($1 == c); if (p) { sub(/^  [a-z]+ */, ""); printf "%s", $0 }; next }
    u && p { sub(/^ +/, " "); printf "%s", $0 } END { print "" }' <<<"$top"
}
options_of() { "$exe" "$1" --help | sed '1,/^Options:/d'; }
option_names() { options_of "$1" | sed -n 's/^  \(-h \[ \)\{0,1\}--\([a-z0-9-]*\).*/\2/p'; }

count=$(wc -w <<<"$commands")
common=$(for c in $commands; do option_names "$c" | sort -u; done | sort | uniq -c | awk -v n="$count" '$1 == n { print $2 }')

# troff_options MODE: the options on stdin (raw --help text) as .TP entries, font changes as
# \001B, \001I, \001R for fonts (escape turns them into troff's); MODE common = only the
# options every command has, own = the others. A continuation line indented past the
# description column (the strategy list) starts a new line.
troff_options() {
  awk -v mode="$1" -v common=" $(tr '\n' ' ' <<<"$common") " '
    { sub(/ +$/, ""); line[NR] = $0 }
    /^   / { match($0, /^ +/); if (!col || RLENGTH < col) col = RLENGTH }
    function flush() { if (spec != "" && keep) { print ".TP"; print spec; print (desc ~ /^[.\x27]/ ? "\001Z" : "") desc } spec = "" }
    END {
      for (i = 1; i <= NR; i++) {
        l = line[i]
        if (l ~ /^  [^ ]/) {
          flush()
          match(l, /^  (-h \[ )?--[a-z0-9-]+( \])?( arg)?( \(=[^)]*\))?/)
          s = substr(l, 3, RLENGTH - 2); desc = substr(l, RLENGTH + 1); sub(/^ +/, "", desc)
          name = s; sub(/^-h \[ /, "", name); sub(/ .*/, "", name); sub(/^--/, "", name)
          keep = (mode == "common") == (index(common, " " name " ") > 0)
          spec = s; sub(/^-h \[ /, "\001Bh\001R, ", spec); sub(/ \]$/, "", spec)
          sub(/--[a-z0-9-]+/, "\001B&\001R", spec); sub(/ arg/, " \001Iarg\001R", spec)
          sub(/\001Bh/, "\001B-h", spec); sub(/ \(=/, " (default: ", spec)
        } else {
          match(l, /^ +/); t = substr(l, RLENGTH + 1)
          desc = desc (RLENGTH > col ? "\n.br\n" : " ") t
        }
      }
      flush()
    }' | escape | sed -e 's/\x01\([BIR]\)/\\f\1/g' -e 's/\x01Z/\\\&/g'
}

describe() {  # describe CMD: its sentence from TEMPLATE
  local d
  d=$(sed -n "s/^\.\\\\\" describe $1: //p" "$template")
  [ -n "$d" ] || { echo "man_page.sh: $template has no '.\\\" describe $1:' line" >&2; return 1; }
  printf '%s\n' "$d" | escape
}

section() {  # section NAME: the generated text for the template's @NAME line
  local c
  case $1 in
    SYNOPSIS) for c in $commands; do printf '.B disktune %s\n%s\n.br\n' "$c" "$(usage_of "$c")"; done ;;
    DEVICE) sed -n '/^DEVICE:/,/^Run /p' <<<"$top" | sed '$d' ;;
    COMMANDS)
      for c in $commands; do
        printf '.SS %s\n.B disktune %s\n%s\n.PP\n' "$c" "$c" "$(usage_of "$c")"
        describe "$c"
        options_of "$c" | troff_options own
      done ;;
    COMMON) options_of "$(head -1 <<<"$commands")" | troff_options common ;;
  esac
}

while IFS= read -r l; do
  case $l in
    @*) section "${l#@}" ;;
    '.\" describe '*) ;;
    *) printf '%s\n' "${l//@VERSION@/$version}" ;;
  esac
done <"$template"
