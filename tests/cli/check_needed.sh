# quantscope-cli runs where only QtCore is installed: the shared libraries its ELF header
# names (NEEDED) include QtCore and none of the widget side (Qt Widgets, Gui, Svg,
# PrintSupport, QCustomPlot), which only quantscope-cli-pictures links.
# Usage: check_needed.sh QUANTSCOPE_CLI SOURCE_DIR
set -euo pipefail
cli=$1
needed=$(readelf -d "$cli" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
printf 'NEEDED of %s:\n%s\n' "$cli" "$needed"
status=0
grep -qx 'libQt6Core\.so\.6' <<<"$needed" || { echo "FAIL: libQt6Core.so.6 is not NEEDED (is this the CLI?)"; status=1; }
for library in Qt6Widgets Qt6Gui Qt6Svg Qt6PrintSupport qcustomplot; do
    if found=$(grep -i "$library" <<<"$needed"); then
        echo "FAIL: quantscope-cli needs $found"
        status=1
    fi
done
((status == 0)) && echo "PASS: no widget library among quantscope-cli's NEEDED entries"
exit $status
