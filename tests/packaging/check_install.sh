# `cmake --install` of the built tree into a scratch DESTDIR with prefix /usr, as the package
# lays it out, then every desktop-integration file through the tool that reads it.
source "$(dirname "$0")/common.sh"
ROOT=$SCRATCH/root
DESTDIR=$ROOT cmake --install "$BUILD_DIR" --prefix /usr >"$SCRATCH/install.log" 2>&1 ||
    { cat "$SCRATCH/install.log" >&2; fail "cmake --install"; finish; }
share=$ROOT/usr/share
app_id=$(sed -n 's/^QS_APP_ID:STRING=//p' "$BUILD_DIR/CMakeCache.txt")

# The file list: exactly the programs (no benchmarks) and the integration files.
expected=(usr/bin/quantscope usr/bin/quantscope-cli usr/libexec/quantscope/quantscope-cli-pictures
          usr/share/applications/quantscope.desktop
          "usr/share/metainfo/$app_id.metainfo.xml"
          usr/share/mime/packages/quantscope.xml
          usr/share/man/man1/quantscope.1.gz usr/share/man/man1/quantscope-cli.1.gz
          usr/share/bash-completion/completions/quantscope-cli
          usr/share/icons/hicolor/scalable/apps/quantscope.svg)
for size in 16 22 24 32 48 64 128 256; do
    expected+=("usr/share/icons/hicolor/${size}x${size}/apps/quantscope.png")
done
# The ready one-case files of `quantscope-cli ... --case`, every one of resources/cases.
for case_file in "$SOURCE_DIR"/resources/cases/*.json; do
    expected+=("usr/share/quantscope/cases/$(basename "$case_file")")
done
(cd "$ROOT" && find . -type f | sed 's|^\./||' | sort) >"$SCRATCH/files"
printf '%s\n' "${expected[@]}" | sort >"$SCRATCH/expected"
expect "installed files are exactly the expected $(wc -l <"$SCRATCH/expected")" \
    diff -u "$SCRATCH/expected" "$SCRATCH/files"
# The installed quantscope-cli finds the installed quantscope-cli-pictures (bin/../libexec/
# quantscope) for its picture outputs.
case_file=$SOURCE_DIR/resources/cases/qdq_v2_int8_data_range.json
if (cd "$SCRATCH" && "$ROOT/usr/bin/quantscope-cli" export --case "$case_file" --view transfer --png installed.png) &&
    [[ $(od -An -c -j1 -N3 "$SCRATCH/installed.png" | tr -d ' ') == PNG ]]; then
    pass "the installed quantscope-cli draws a PNG through the installed quantscope-cli-pictures"
else
    fail "the installed quantscope-cli export --png wrote no PNG"
fi
for size in 16 22 24 32 48 64 128 256; do
    png=$share/icons/hicolor/${size}x${size}/apps/quantscope.png
    [[ -f $png ]] || continue
    # PNG header: width and height are the big-endian words at bytes 16 and 20.
    dims=$(od -An -tu1 -j16 -N8 "$png" | awk '{print $3*256+$4 "x" $7*256+$8}')
    [[ $dims == "${size}x${size}" ]] || fail "$png is $dims, not ${size}x${size}"
done

# The desktop entry and the AppStream metadata (alone, and with the tree: the launchable
# must name the installed desktop entry).
expect "desktop-file-validate quantscope.desktop" desktop-file-validate "$share/applications/quantscope.desktop"
expect "appstreamcli validate --no-net $app_id.metainfo.xml" \
    appstreamcli validate --no-net "$share/metainfo/$app_id.metainfo.xml"
expect "appstreamcli validate-tree --no-net" appstreamcli validate-tree --no-net "$ROOT"
# The screenshot form (with a web address for docs/) validates as well.
cmake -DTEMPLATE="$SOURCE_DIR/packaging/quantscope.metainfo.xml.in" -DOUTPUT="$SCRATCH/shots.metainfo.xml" \
    -DAPP_ID="$app_id" -DSCREENSHOT_URL=https://example.org/quantscope/docs \
    -DMODEL_FORMATS="$BUILD_DIR/packaging/model_format_list.cmake" -P "$SOURCE_DIR/packaging/metainfo.cmake"
expect "metainfo with screenshots lists 6 with captions" \
    test "$(grep -c '<caption>' "$SCRATCH/shots.metainfo.xml")" -eq 6
expect "appstreamcli validate --no-net (with screenshots)" \
    appstreamcli validate --no-net "$SCRATCH/shots.metainfo.xml"

# The MIME type: the database built from the package's XML maps *.qscope to the type the
# desktop entry opens.
mkdir -p "$SCRATCH/mime/packages"
cp "$share/mime/packages/quantscope.xml" "$SCRATCH/mime/packages/"
expect "update-mime-database" update-mime-database "$SCRATCH/mime"
expect "*.qscope is application/x-quantscope-session" \
    grep -qx 'application/x-quantscope-session:\*\.qscope' "$SCRATCH/mime/globs"
expect "the desktop entry opens application/x-quantscope-session" \
    grep -qx 'MimeType=application/x-quantscope-session;' "$share/applications/quantscope.desktop"

# Man pages: render without a warning from groff or man.
for page in quantscope quantscope-cli; do
    file=$share/man/man1/$page.1.gz
    if out=$(MANWIDTH=80 man --warnings -l "$file" 2>&1 >"$SCRATCH/$page.txt") && [[ -z $out ]] &&
        grep -q "^NAME" "$SCRATCH/$page.txt"; then
        pass "man -l $page.1 renders ($(wc -l <"$SCRATCH/$page.txt") lines)"
    else
        fail "man -l $page.1: ${out:-no NAME section}"
    fi
done
# Each page documents every long option of its program's help.
"$GUI" --help | long_options >"$SCRATCH/gui-options"
for option in $(cat "$SCRATCH/gui-options"); do
    grep -qF -- "$option" "$SCRATCH/quantscope.txt" || fail "quantscope.1 does not describe $option"
done
pass "quantscope.1 describes the $(wc -l <"$SCRATCH/gui-options") long options of quantscope --help"
commands=$("$CLI" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p')
expect "quantscope-cli --help lists commands" test -n "$commands"
for command in $commands; do
    for option in $("$CLI" "$command" --help | long_options); do
        grep -qF -- "$option" "$SCRATCH/quantscope-cli.txt" || fail "quantscope-cli.1 lacks $command $option"
    done
    grep -q "^   $command\$" "$SCRATCH/quantscope-cli.txt" || fail "quantscope-cli.1 has no section $command"
done

# Bash completion: loads through bash-completion's loader from the installed place, completes
# the commands, each command's options as its help lists them, and file suffixes.
mkdir -p "$SCRATCH/work" && touch "$SCRATCH/work/"{a.qscope,b.json,c.npy,d.txt,e.onnx,f.hdf5,g.index}
complete_line() {  # WORDS...: what completing the last word offers, sorted, one a line
    bash --norc --noprofile -c '
        source /usr/share/bash-completion/bash_completion
        # Searched first: the installed copy, not one in ~/.local or /usr.
        export BASH_COMPLETION_USER_DIR='"$share"'/bash-completion
        __load_completion quantscope-cli || exit 3
        complete -p quantscope-cli | grep -q -- "-F _quantscope_cli" || exit 4
        COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
        COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
        _quantscope_cli quantscope-cli "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
        printf "%s\n" "${COMPREPLY[@]}" | sort' bash "$@"
}
check_completion() {  # EXPECTED WORDS...
    local expected=$1 got
    shift
    got=$(cd "$SCRATCH/work" && complete_line "$@" | tr '\n' ' ' | sed 's/ $//') || true
    if [[ $got == "$expected" ]]; then pass "complete '$*' -> $got"; else fail "complete '$*' -> '$got', expected '$expected'"; fi
}
check_completion "embedding eval export" quantscope-cli e
check_completion "calibrate compare" quantscope-cli analyze c
check_completion "a.qscope" quantscope-cli export --session ""
check_completion "error-histogram" quantscope-cli export --view er
check_completion "c.npy d.txt" quantscope-cli analyze sweep-bits --data ""
# The model files' suffixes are filled in from the table of formats at build time.
check_completion "c.npy e.onnx f.hdf5 g.index" quantscope-cli model ""
for command in $commands; do
    "$CLI" "$command" --help | long_options >"$SCRATCH/help-options"
    echo --help >>"$SCRATCH/help-options"  # every command takes it, not all list it
    sort -u -o "$SCRATCH/help-options" "$SCRATCH/help-options"
    (cd "$SCRATCH/work" && complete_line quantscope-cli "$command" --) >"$SCRATCH/completed-options"
    expect "completion offers exactly the long options of '$command --help'" \
        diff -u "$SCRATCH/help-options" "$SCRATCH/completed-options"
done
finish
