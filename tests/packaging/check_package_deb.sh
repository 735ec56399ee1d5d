# `cpack -G DEB` from the built tree into a scratch folder: one .deb whose contents are the
# installed files, with the fields filled and the dependencies computed by dpkg-shlibdeps.
source "$(dirname "$0")/common.sh"
(cd "$BUILD_DIR" && cpack -G DEB -B "$SCRATCH/out") >"$SCRATCH/cpack.log" 2>&1 ||
    { cat "$SCRATCH/cpack.log" >&2; fail "cpack -G DEB"; finish; }
debs=("$SCRATCH"/out/*.deb)
expect "cpack made one .deb (${debs[*]##*/})" test "${#debs[@]}" -eq 1 -a -f "${debs[0]}"
deb=${debs[0]}
dpkg-deb -c "$deb" | awk '$1 !~ /^d/ {print $6}' | sed 's|^\./||' | sort >"$SCRATCH/contents"
app_id=$(sed -n 's/^QS_APP_ID:STRING=//p' "$BUILD_DIR/CMakeCache.txt")
for file in usr/bin/quantscope usr/bin/quantscope-cli usr/share/applications/quantscope.desktop \
    "usr/share/metainfo/$app_id.metainfo.xml" usr/share/mime/packages/quantscope.xml \
    usr/share/man/man1/quantscope.1.gz usr/share/man/man1/quantscope-cli.1.gz \
    usr/share/bash-completion/completions/quantscope-cli \
    usr/share/icons/hicolor/scalable/apps/quantscope.svg usr/share/icons/hicolor/48x48/apps/quantscope.png \
    usr/share/icons/hicolor/256x256/apps/quantscope.png; do
    grep -qx "$file" "$SCRATCH/contents" || fail "the .deb lacks $file"
done
if grep -q bench "$SCRATCH/contents"; then fail "the .deb holds a benchmark: $(grep bench "$SCRATCH/contents")"; fi
pass "the .deb holds $(wc -l <"$SCRATCH/contents") files, $(du -k "$deb" | cut -f1) KiB"
field() { dpkg-deb -f "$deb" "$1"; }
expect "Package: quantscope" test "$(field Package)" = quantscope
expect "Section: science" test "$(field Section)" = science
expect "Maintainer is set ($(field Maintainer))" test -n "$(field Maintainer)"
field Description >"$SCRATCH/description"
expect "Description has a synopsis and a long text" test "$(wc -l <"$SCRATCH/description")" -gt 3
expect "the long text does not repeat the synopsis" \
    test "$(sed -n 2p "$SCRATCH/description" | sed 's/^ //')" != "$(sed -n 1p "$SCRATCH/description")"
depends=$(field Depends)
for library in libqt6widgets6 libqt6svg6 libqcustomplot2.1-qt6 libc6; do
    [[ $depends == *"$library"* ]] || fail "Depends lacks $library (computed: $depends)"
done
pass "Depends computed: $depends"
finish
