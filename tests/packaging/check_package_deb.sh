# `cpack -G DEB` from the built tree into a scratch folder: two .debs, quantscope-cli (the
# headless command-line tool) and quantscope (the window and the CLI's pictures, depending on
# quantscope-cli), whose contents together are the installed files, with the fields filled
# and the library dependencies computed by dpkg-shlibdeps. Unpacked alone, quantscope-cli
# runs its text commands and names the missing package for a picture; with quantscope
# unpacked beside it, it draws.
source "$(dirname "$0")/common.sh"
(cd "$BUILD_DIR" && cpack -G DEB -B "$SCRATCH/out") >"$SCRATCH/cpack.log" 2>&1 ||
    { cat "$SCRATCH/cpack.log" >&2; fail "cpack -G DEB"; finish; }
debs=("$SCRATCH"/out/*.deb)
names=$(printf '%s\n' "${debs[@]##*/}" | sed 's/_.*//' | sort | tr '\n' ' ')
expect "cpack made the .debs quantscope and quantscope-cli (${debs[*]##*/})" test "$names" = "quantscope quantscope-cli "
cli_deb=$(ls "$SCRATCH"/out/quantscope-cli_*.deb)
gui_deb=$(ls "$SCRATCH"/out/quantscope_*.deb)
contents() { dpkg-deb -c "$1" | awk '$1 !~ /^d/ {print $6}' | sed 's|^\./||' | sort; }
contents "$cli_deb" >"$SCRATCH/cli-contents"
contents "$gui_deb" >"$SCRATCH/gui-contents"
app_id=$(sed -n 's/^QS_APP_ID:STRING=//p' "$BUILD_DIR/CMakeCache.txt")
has() {  # LIST FILE...: each FILE is in the contents LIST
    local list=$1
    shift
    for file in "$@"; do
        grep -qx "$file" "$SCRATCH/$list-contents" || fail "the $list .deb lacks $file"
    done
}
has cli usr/bin/quantscope-cli usr/share/man/man1/quantscope-cli.1.gz \
    usr/share/bash-completion/completions/quantscope-cli usr/share/quantscope/cases/qdq_v3_int8.json
has gui usr/bin/quantscope usr/libexec/quantscope/quantscope-cli-pictures \
    usr/share/applications/quantscope.desktop "usr/share/metainfo/$app_id.metainfo.xml" \
    usr/share/mime/packages/quantscope.xml usr/share/man/man1/quantscope.1.gz \
    usr/share/icons/hicolor/scalable/apps/quantscope.svg usr/share/icons/hicolor/48x48/apps/quantscope.png \
    usr/share/icons/hicolor/256x256/apps/quantscope.png
if grep -qvE '^usr/(bin/quantscope-cli|share/man/man1/quantscope-cli\.1\.gz|share/bash-completion/|share/quantscope/cases/)' \
    "$SCRATCH/cli-contents"; then
    fail "the quantscope-cli .deb holds more than the CLI: $(grep -vE 'quantscope-cli|cases' "$SCRATCH/cli-contents")"
fi
both=$(comm -12 "$SCRATCH/cli-contents" "$SCRATCH/gui-contents")
expect "no file is in both packages${both:+ ($both)}" test -z "$both"
if grep -q bench "$SCRATCH"/cli-contents "$SCRATCH"/gui-contents; then fail "a .deb holds a benchmark"; fi
pass "quantscope-cli holds $(wc -l <"$SCRATCH/cli-contents") files, $(du -k "$cli_deb" | cut -f1) KiB;" \
    "quantscope $(wc -l <"$SCRATCH/gui-contents") files, $(du -k "$gui_deb" | cut -f1) KiB"

version=$(sed -n 's/^project(QuantScope VERSION \([0-9.]*\).*/\1/p' "$SOURCE_DIR/CMakeLists.txt")
for deb in "$cli_deb" "$gui_deb"; do
    field() { dpkg-deb -f "$deb" "$1"; }
    package=$(field Package)
    expect "$package: Section: science" test "$(field Section)" = science
    expect "$package: Version: $version" test "$(field Version)" = "$version"
    expect "$package: Maintainer is set ($(field Maintainer))" test -n "$(field Maintainer)"
    field Description >"$SCRATCH/description"
    expect "$package: Description has a synopsis and a long text" test "$(wc -l <"$SCRATCH/description")" -gt 3
    expect "$package: the long text does not repeat the synopsis" \
        test "$(sed -n 2p "$SCRATCH/description" | sed 's/^ //')" != "$(sed -n 1p "$SCRATCH/description")"
    if grep -qi "built using CMake" "$SCRATCH/description"; then fail "$package: CPack's placeholder synopsis"; fi
done
cli_synopsis=$(dpkg-deb -f "$cli_deb" Description | sed -n 1p)
gui_synopsis=$(dpkg-deb -f "$gui_deb" Description | sed -n 1p)
expect "each package has its own synopsis ('$cli_synopsis' / '$gui_synopsis')" test "$cli_synopsis" != "$gui_synopsis"

# Dependencies: the CLI's name QtCore and no widget library; the window's name the CLI of the
# same version and the widget libraries.
cli_depends=$(dpkg-deb -f "$cli_deb" Depends)
gui_depends=$(dpkg-deb -f "$gui_deb" Depends)
for library in libqt6core6 libc6; do
    [[ $cli_depends == *"$library"* ]] || fail "quantscope-cli: Depends lacks $library (computed: $cli_depends)"
done
for library in libqt6widgets6 libqt6gui6 libqt6svg6 libqt6printsupport6 libqcustomplot; do
    [[ $cli_depends != *"$library"* ]] || fail "quantscope-cli: Depends names $library (computed: $cli_depends)"
done
pass "quantscope-cli: Depends computed: $cli_depends"
for library in "quantscope-cli (= $version)" libqt6widgets6 libqt6svg6 libqcustomplot2.1-qt6 libc6; do
    [[ $gui_depends == *"$library"* ]] || fail "quantscope: Depends lacks $library (computed: $gui_depends)"
done
pass "quantscope: Depends computed: $gui_depends"

# quantscope-cli unpacked alone: text commands work, a picture names what is missing.
root=$SCRATCH/root
dpkg-deb -x "$cli_deb" "$root"
case_file=$root/usr/share/quantscope/cases/qdq_v2_int8_data_range.json
cli=$root/usr/bin/quantscope-cli
expect "quantscope-cli alone: export --csv" sh -c '"$0" export --case "$1" --view transfer --csv - | grep -q "^input,code,output,error$"' \
    "$cli" "$case_file"
status=0
message=$(cd "$SCRATCH" && "$cli" export --case "$case_file" --view transfer --png alone.png 2>&1) || status=$?
expected="quantscope-cli export: --png needs the quantscope package (quantscope-cli-pictures not found in $root/usr/libexec/quantscope)"
if ((status == 2)) && [[ $message == "$expected" && ! -e $SCRATCH/alone.png ]]; then
    pass "quantscope-cli alone: export --png -> exit 2, '$message'"
else
    fail "quantscope-cli alone: export --png exited $status with '$message', expected 2 with '$expected'"
fi
# ... and with quantscope beside it.
dpkg-deb -x "$gui_deb" "$root"
if (cd "$SCRATCH" && "$cli" export --case "$case_file" --view transfer --png both.png) &&
    [[ $(od -An -c -j1 -N3 "$SCRATCH/both.png" | tr -d ' ') == PNG ]]; then
    pass "quantscope-cli with quantscope: export --png draws"
else
    fail "quantscope-cli with quantscope: export --png wrote no PNG"
fi
finish
