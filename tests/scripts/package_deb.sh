#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The Debian package (scripts/package): no lintian error; its files (sbin binary, man page, docs,
# no udev rule or unit), its control fields; installed with dpkg into a scratch root it runs
# --version and a simulated tune, its man page renders and names every command and option of
# --help; dpkg --purge then leaves nothing behind.
source "$(dirname "$0")/lib.bash"
for tool in lintian dpkg-deb dpkg-shlibdeps man; do
  command -v "$tool" >/dev/null || skip "$tool not installed (scripts/setup installs it)"
done
[ "$(id -u)" -eq 0 ] || skip "dpkg --root needs root"
src=$(cd "$(dirname "$0")/../.." && pwd)
deb=$("$src/scripts/package" 2>"$WORK/package.err") || fail "scripts/package: $(tail -20 "$WORK/package.err")"
[ -f "$deb" ] || fail "scripts/package printed '$deb', no file"

lintian --tag-display-limit 0 "$deb" 2>&1 | grep -v "^running with root privileges" >"$WORK/lintian.out" || true
! grep '^E:' "$WORK/lintian.out" || fail "lintian errors (above)"
grep -q '^W:' "$WORK/lintian.out" && echo "lintian warnings (docs/package.md lists the known ones):" && grep '^W:' "$WORK/lintian.out"

version=$("$DISKTUNE" --version | awk '{ print $2 }')
field() { dpkg-deb --field "$deb" "$1"; }
expect_eq "$(field Version)" "$version-1" "the package version"
expect_eq "$(field Recommends)" "hdparm, fio" "Recommends"
field Depends | grep -q 'libc6' || fail "Depends was not computed by dpkg-shlibdeps: $(field Depends)"
dpkg-deb --contents "$deb" >"$WORK/contents"
grep -Eq '^-rwxr-xr-x root/root .* \./usr/sbin/disktune$' "$WORK/contents" || fail "no root-owned /usr/sbin/disktune: $(cat "$WORK/contents")"
for f in usr/share/man/man8/disktune.8.gz usr/share/doc/disktune/{README.md,copyright,changelog.Debian.gz,docs/apply.md}; do
  grep -q " \./$f\$" "$WORK/contents" || fail "the package has no /$f"
done
! grep -E ' \./(usr/bin/|etc/|lib/|usr/lib/(udev|systemd))' "$WORK/contents" || fail "the package ships files disktune install writes per drive, or a /usr/bin binary"

# dpkg into a scratch root: its own database, no maintainer scripts to run (the package has none).
root=$WORK/root
mkdir -p "$root/var/lib/dpkg/updates" "$root/var/lib/dpkg/info"
: >"$root/var/lib/dpkg/status"
dpkg --root="$root" --force-depends --force-script-chrootless -i "$deb" >"$WORK/dpkg.out" 2>&1 || fail "dpkg -i: $(cat "$WORK/dpkg.out")"
exe=$root/usr/sbin/disktune
expect_eq "$("$exe" --version)" "$("$DISKTUNE" --version)" "the installed binary's --version"
tune_completed "$exe" tune sim: --max-trials 3 --journal "$WORK/j" --report "$WORK/r.json" >"$WORK/tune.out" 2>&1 ||
  fail "the installed binary's simulated tune: $(cat "$WORK/tune.out")"
expect_eq "$(jq -r .tool_version "$WORK/r.json")" "$version" "the report's tool version"

# The man page renders without warnings and names every command and every option of --help.
page=$root/usr/share/man/man8/disktune.8.gz
MANWIDTH=250 man --warnings -l "$page" >"$WORK/man.txt" 2>"$WORK/man.err" || fail "man -l: $(cat "$WORK/man.err")"
[ ! -s "$WORK/man.err" ] || fail "man page warnings: $(cat "$WORK/man.err")"
commands=$("$exe" --help | awk '/^usage:/ { u = 1; next } u && /^[^ ]/ { exit } u && /^  [a-z]/ { print $1 }')
[ "$(wc -w <<<"$commands")" -ge 10 ] || fail "--help lists too few commands: $commands"
for c in $commands; do
  grep -Eq "^   $c\$" "$WORK/man.txt" || fail "the man page has no section for '$c'"
  for o in $("$exe" "$c" --help | sed -n 's/^  \(-h \[ \)\{0,1\}--\([a-z0-9-]*\).*/\2/p'); do
    grep -q -- "--$o" "$WORK/man.txt" || fail "the man page lacks $c's option --$o"
  done
done

dpkg --root="$root" --force-script-chrootless --purge disktune >"$WORK/purge.out" 2>&1 || fail "dpkg --purge: $(cat "$WORK/purge.out")"
left=$(cd "$root" && find . -mindepth 1 ! -path './var' ! -path './var/lib' ! -path './var/lib/dpkg*')
[ -z "$left" ] || fail "dpkg --purge left: $left"
dpkg --root="$root" -s disktune >/dev/null 2>&1 && fail "dpkg still lists disktune after --purge"
echo "ok: $(basename "$deb") ($(grep -c '^W:' "$WORK/lintian.out" || true) lintian warnings)"
