#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test_report_html.sh - lh report --html rendered by a real browser (issue 48): the page of a
# monitor series and the page of a snapshot, made from fixture trees (fixture.awk, the module's
# formats), are made under gawk, mawk and busybox awk (the same bytes each time), must hold no
# external resource and escape the names they show, and are rendered by Debian's chromium,
# headless. A case fails on any console message of the page (an uncaught error included), on an
# svg that rendered with no size (the page's own script counts them into data-svgs and
# data-svgs-empty of its body, which --dump-dom reads), and on a table cell that differs from
# `lh summary --json` of the same tree. A broken page (an svg of size zero, a script error) must
# fail those checks: the checker is tested too.
#
# The screenshots (1280 px wide) are kept: in $LH_LOGS/report_html/ under scripts/run-tests.sh,
# else in a directory under $TMPDIR that the test names. Needs chromium (scripts/setup-host.sh,
# test profile) and python3, else the browser cases are KTAP SKIPs that say so. Takes about
# 10-15 s, most of it three chromium starts.
#
# Usage: sh selftests/lh_host/test_report_html.sh
# Prints KTAP; exit 1 if a case failed.

LT_DIR=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=host_lib.sh
. "$LT_DIR/host_lib.sh"
FIXTURE=$LT_DIR/fixture.awk
PY=$(command -v python3 2>/dev/null)
CHROMIUM=$(command -v chromium 2>/dev/null || command -v chromium-browser 2>/dev/null)
LH_MONITOR_RUNDIR=$TMP/run
export LH_MONITOR_RUNDIR
mkdir -p "$LH_MONITOR_RUNDIR"
if [ -n "${LH_LOGS:-}" ]; then
	ART=$LH_LOGS/report_html
else
	ART=$(mktemp -d "${TMPDIR:-/tmp}/lh_report_html.XXXXXX") || exit 1
fi
mkdir -p "$ART" || exit 1

# spec K - the fixture spec of the tree after K monitor intervals: every interval adds the same
# samples; a 7786 us wakeup on CPU 1 comes in the second, a 4240 us missed_timer_offsets on CPU 1
# in the fourth, the outlier records from the second on. Names with markup (a comm "<script>x",
# a max record's "rt<b>&sleeper") must reach the page escaped.
spec()
{
	cat <<EOF
cpus 2
types wakeup missed_timer_offsets irqsoff
status wakeup available=1 enabled=1 bytes=0 explain=1 outliers=1 clock=tsc clock_why=constant_tsc+nonstop_tsc clock_drops=0
status missed_timer_offsets available=1 enabled=1 bytes=0 explain=1 outliers=1 clock=tsc clock_why=constant_tsc+nonstop_tsc clock_drops=0
status irqsoff available=0 enabled=0 bytes=0 clock=tsc reason=preemptirq tracepoints not present in this kernel
enable wakeup 1
enable missed_timer_offsets 1
samples wakeup 0 2:$((500 * $1)) 3:$((4000 * $1)) 4:$((2000 * $1)) 5:$((300 * $1)) 8:$((40 * $1)) 12:$((5 * $1)) 40:$((2 * $1)) 250:$(($1 / 4))
samples wakeup 1 2:$((800 * $1)) 3:$((3000 * $1)) 4:$((900 * $1)) 6:$((120 * $1)) 9:$((30 * $1)) 15:$((3 * $1)) 7786:$(($1 >= 2))
samples missed_timer_offsets 0 1:$((900 * $1)) 2:$((5000 * $1)) 3:$((70 * $1)) 11:$((2 * $1))
samples missed_timer_offsets 1 1:$((1000 * $1)) 2:$((4000 * $1)) 4:$((50 * $1)) 4240:$(($1 >= 4))
max wakeup 0 1234 80 250 (0) rt<b>&sleeper <- 99 -21 swapper/0 123.456789
max wakeup 1 242 80 7786 (0) rt_sleeper <- 0 -21 swapper/1 47.968677
max missed_timer_offsets 1 242 80 4240 (4240) rt_sleeper <- 17 -21 kworker/1:1 48.000001
budget wakeup 4000
budget missed_timer_offsets 4000
EOF
	[ "$1" -ge 2 ] || return 0
	cat <<'EOF'
outlier wakeup 1 12 2073374100 7786 hardirq vector 236 local_timer
outlier wakeup 1 13 3073374100 4100 thread thread 77 <script>x
outlier wakeup 0 1 2500000000 5000 softirq softirq 7 SCHED
outlier missed_timer_offsets 1 3 2600000000 4240 unexplained
outlierlog wakeup 1 realtime_offset_ns=1795305600000000000
outlierlog wakeup 0 realtime_offset_ns=1795392000000000000
outlierlog missed_timer_offsets 1 realtime_offset_ns=1795392000000000000 dropped=2
EOF
}

# explain_files DIR - the explain files of the tree DIR: the worst windows of wakeup and
# missed_timer_offsets on CPU 1 explained (as lh explain's own test has them), none elsewhere
explain_files()
{
	mkdir -p "$1/explain"
	echo 1 >"$1/explain/enable"
	for t in wakeup missed_timer_offsets; do
		for c in 0 1; do
			echo "(none)" >"$1/$t/explain-CPU$c"
		done
	done
	printf '%s\n' "hardirq 7709363 1" "softirq 16164 1" "nmi 0 0" "thread 0 0" "other 61371 1" "window 7786898" \
		"  vector 236 local_timer 1 7709363" "    timer lh_hardirq_fn [lh_load_test] 1 7700120" \
		"  softirq 7 SCHED 1 16164" "  idle 61371" >"$1/wakeup/explain-CPU1"
	printf '%s\n' "hardirq 4211331 2" "softirq 0 0" "nmi 1200 1" "thread 28100 2" "other 3000 1" "window 4243631" \
		"  vector 236 local_timer 1 4201012" "  irq 11 virtio0 1 10319" "  thread 1234 1 ktimers/1 20100" \
		"  thread-rest 1 8000" "  uncovered 3000" >"$1/missed_timer_offsets/explain-CPU1"
}

# tree K DIR - the tree of spec K in DIR, in place (a monitor sees the same module load)
tree()
{
	spec "$1" >"$TMP/spec"
	rm -rf "$TMP/new"
	awk -v out="$TMP/new" -f "$FIXTURE" "$TMP/spec" || err "fixture.awk failed"
	explain_files "$TMP/new"
	mkdir -p "$2"
	cp -r "$TMP/new/." "$2/" || err "cannot update $2"
}

# make_data - $TMP/t, the tree after 4 intervals; $TMP/snap, its snapshot (its host renamed to
# one with markup); $TMP/m, the series of lh monitor over the 4 intervals, 300 s apart (date is
# a stand-in that gives the monitor the time of $TMP/now)
make_data()
{
	FLAVOUR=gawk
	flavour gawk || return 1
	mkdir -p "$TMP/fake"
	REAL_DATE=$(command -v date)
	cat >"$TMP/fake/date" <<EOF
#!/bin/sh
exec "$REAL_DATE" -d "@\$(cat "$TMP/now")" "\$@"
EOF
	chmod +x "$TMP/fake/date"
	rm -rf "$TMP/t" "$TMP/m" "$TMP/snap"
	tree 0 "$TMP/t"
	LH_ROOT=$TMP/t
	export LH_ROOT
	k=0
	while [ "$k" -le 4 ]; do
		[ "$k" = 0 ] || tree "$k" "$TMP/t"
		echo $((1795305600 + 300 * k)) >"$TMP/now"
		SAVED=$FPATH
		FPATH=$TMP/fake:$FPATH
		lh monitor --interval 300 --count 0 --out "$TMP/m"
		FPATH=$SAVED
		expect_rc 0 "lh monitor read $k"
		k=$((k + 1))
	done
	lh snapshot "$TMP/snap"
	expect_rc 0 "lh snapshot"
	sed -i 's/^host=.*/host=rig<1>\&"q"/' "$TMP/snap/snapshot.meta"
	lh summary --json
	cp "$TMP/out" "$TMP/summary.json"
	case_end fixture_series_and_snapshot
}

# case_page NAME SRC - lh report SRC --html in every flavour: the same page each time, no external
# resource, names escaped
case_page()
{
	for f in gawk mawk busybox; do
		flavour "$f" || { err "$f is not installed"; continue; }
		rm -f "$TMP/$1.$f.html"
		lh report "$2" --html "$TMP/$1.$f.html"
		expect_rc 0 "$f: lh report $2 --html"
		[ "$f" = gawk ] || cmp -s "$TMP/$1.gawk.html" "$TMP/$1.$f.html" || err "$f: the page differs from gawk's"
	done
	FLAVOUR=gawk
	P=$TMP/$1.gawk.html
	[ -s "$P" ] || { err "no page"; case_end "$1_page_made"; return; }
	if grep -nE 'src=|href=|<link|@import|url\([^#]' "$P" | head -n 3 | grep .; then
		err "the page refers to something outside it"
	fi
	[ "$(grep -c '<script' "$P")" = 1 ] || err "a <script> other than the page's own: markup from a name was not escaped"
	grep -q '&lt;script&gt;x' "$P" || err "the comm <script>x is not in the page, escaped"
	[ "$1" = series ] || grep -q 'rig&lt;1&gt;&amp;&quot;q&quot;' "$P" || err "the host rig<1>&\"q\" is not in the page, escaped"
	for f in "$TMP"/*.tmp "$TMP"/*.model; do
		[ ! -e "$f" ] || err "a temporary file left behind: $f"
	done
	case_end "$1_page_made_alike_by_each_awk_self_contained_escaped"
}

# case_live_and_errors - the page of a tree read live (a tree without snapshot.meta, LH_ROOT or
# named), and bad input: exit 2, or 3 when the module is not loaded, and no page
case_live_and_errors()
{
	flavour gawk
	lh report --html "$TMP/live.html"
	expect_rc 0 "LH_ROOT=tree lh report --html"
	grep -q '(live tree)' "$TMP/live.html" || err "the page of LH_ROOT does not say it is the live tree"
	grep -q 'clock=tsc clock_why=constant_tsc+nonstop_tsc' "$TMP/live.html" || err "the page lacks the clock of the status file"
	lh report "$TMP/t" --html "$TMP/tree.html"
	expect_rc 0 "lh report TREE --html"
	for bad in "$TMP/snap --html $TMP/x.txt" "$TMP/nonexistent --html $TMP/x.html" "$TMP/snap --html $TMP/nodir/x.html" \
		"$TMP/snap --html" "$TMP/snap $TMP/m --html $TMP/x.html" "$TMP/snap --html $TMP/x.html --top 0"; do
		# shellcheck disable=SC2086 # words
		lh report $bad
		expect_rc 2 "lh report $bad"
	done
	SAVED=$LH_ROOT
	LH_ROOT=
	LH_DEBUGFS=$TMP/nodebugfs LH_SYSMODULE=$TMP/nomodule
	export LH_DEBUGFS LH_SYSMODULE
	lh report --html "$TMP/x.html"
	expect_rc 3 "lh report --html without the module"
	expect_err "module is not loaded" "lh report --html without the module"
	unset LH_DEBUGFS LH_SYSMODULE
	LH_ROOT=$SAVED
	for f in "$TMP"/x.* "$TMP"/*.tmp "$TMP"/*.model; do
		[ ! -e "$f" ] || err "a file left behind by a failed lh report --html: $f"
	done
	case_end live_tree_page_and_bad_input
}

# render HTML NAME - chromium renders HTML headless: its DOM after the scripts ran to
# $TMP/NAME.dom, what it logged to $TMP/NAME.log, the screenshot to $ART/NAME.png
render()
{
	"$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
		--disable-component-update --disable-sync --user-data-dir="$(mktemp -d "$TMP/chr.XXXXXX")" \
		--enable-logging=stderr --v=0 --hide-scrollbars --window-size=1280,4400 --screenshot="$ART/$2.png" --dump-dom \
		"file://$1" >"$TMP/$2.dom" 2>"$TMP/$2.log"
}

# browser_errors NAME SVGS - print what the render NAME shows wrong: a console message of the page,
# no body attributes from the page's script, fewer than SVGS svg elements, an svg with no size,
# no screenshot
browser_errors()
{
	grep -h ':CONSOLE' "$TMP/$1.log" | sed 's/^/console: /' | head -n 5
	B=$(grep -o '<body[^>]*>' "$TMP/$1.dom")
	n=$(echo "$B" | sed -n 's/.*data-svgs="\([0-9]*\)".*/\1/p')
	z=$(echo "$B" | sed -n 's/.*data-svgs-empty="\([0-9]*\)".*/\1/p')
	if [ -z "$n" ] || [ -z "$z" ]; then
		echo "the page's check did not run: $B"
	else
		[ "$n" -ge "$2" ] || echo "$n svg elements, expected $2 or more"
		[ "$z" = 0 ] || echo "$z of $n svg elements rendered with no size"
	fi
	[ -s "$ART/$1.png" ] || echo "no screenshot $ART/$1.png"
}

# numbers NAME CPUS - python3 compares the table cells of the DOM of render NAME with
# $TMP/summary.json: samples, p50, p99, p99.9 and max of every type and CPU (CPUS all: the series
# page, which has the percentiles of all CPUs only: per CPU its samples and maximum)
numbers()
{
	"$PY" - "$TMP/$1.dom" "$TMP/summary.json" "$2" <<'EOF'
import json, sys
from html.parser import HTMLParser
dom, summ, only = sys.argv[1], json.load(open(sys.argv[2])), sys.argv[3]
cells = {}
class P(HTMLParser):
    row = None; key = None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "tr" and "data-type" in a:
            self.row = (a["data-type"], a["data-cpu"])
        elif tag == "td" and self.row and "data-k" in a:
            self.key = a["data-k"]; cells[self.row + (self.key,)] = ""
    def handle_data(self, d):
        if self.key:
            cells[self.row + (self.key,)] += d
    def handle_endtag(self, tag):
        if tag == "td": self.key = None
        if tag == "tr": self.row = None
P().feed(open(dom).read())
bad = 0; checked = 0
def val(v):
    return "-" if v is None else str(v)
for t, d in summ["types"].items():
    rows = [(c, x["summary"]) for c, x in d["cpus"].items()] + [("all", d["all"]["summary"])]
    if all(s["samples"] == 0 for c, s in rows):
        continue
    for c, s in rows:
        keys = ("samples", "p50", "p99", "p99.9", "max") if only != "all" or c == "all" else ("samples", "max")
        for k in keys:
            got = cells.get((t, c, k))
            checked += 1
            if got != val(s[k]):
                print("%s CPU %s %s: the page says %r, lh summary --json %r" % (t, c, k, got, val(s[k])))
                bad += 1
print("checked %d cells" % checked)
sys.exit(1 if bad or checked < 10 else 0)
EOF
}

# case_browser NAME SVGS CPUS - the page NAME rendered: no console message, at least SVGS svg
# elements each with a size, its numbers those of lh summary --json
case_browser()
{
	FLAVOUR=chromium
	render "$TMP/$1.gawk.html" "$1"
	out=$(browser_errors "$1" "$2")
	[ -z "$out" ] || { err "chromium shows the page broken:"; echo "$out" | sed 's/^/#   /'; }
	nums=$(numbers "$1" "$3") || { err "the page's table is not lh summary --json:"; echo "$nums" | sed 's/^/#   /'; }
	echo "# $1: $(echo "$nums" | tail -n 1), screenshot $ART/$1.png"
	case_end "$1_page_renders_in_chromium_with_the_numbers_of_lh_summary"
}

# case_broken - the checks catch a broken page: the snapshot page with its svg elements of size
# zero and a script that throws
case_broken()
{
	FLAVOUR=chromium
	sed -e 's/<svg \([^>]*\)width="[0-9]*" height="[0-9]*"/<svg \1width="0" height="0"/' \
		-e 's|</main>|</main><script>lh_no_such_function();</script>|' "$TMP/snapshot.gawk.html" >"$TMP/broken.html"
	render "$TMP/broken.html" broken
	out=$(browser_errors broken 6)
	echo "$out" | sed 's/^/# broken page: /'
	echo "$out" | grep -q 'console: .*Uncaught ReferenceError' || err "a script error on the page was not seen"
	echo "$out" | grep -q 'svg elements rendered with no size' || err "svg elements of size zero were not seen"
	case_end broken_page_fails_the_checks
}

echo "TAP version 13"
make_data
case_page series "$TMP/m"
case_page snapshot "$TMP/snap"
case_live_and_errors
if [ -z "$CHROMIUM" ] || [ -z "$PY" ]; then
	FLAVOUR=chromium
	for c in series snapshot broken; do
		skip "$c" "chromium or python3 is missing (scripts/setup-host.sh installs them)"
	done
else
	case_browser series 5 all
	case_browser snapshot 6 cpu
	case_broken
fi
echo "1..$ntest"
echo "# Totals: pass:$npass fail:$nfail xfail:0 xpass:0 skip:$nskip error:0"
[ "$nfail" -eq 0 ]
