#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test_alert_rules.sh - the Prometheus rules shipped in contrib/prometheus/ checked by promtool
#
# The rules file must load (`promtool check rules`); its unit tests must pass (`promtool test
# rules`); every alert must have a unit test in which it fires and one in which it does not, so a
# new alert cannot come without both; and every lh series the rules read must be one that lh writes,
# so a renamed metric cannot leave an alert that never fires.
#
# Needs Debian's prometheus package for promtool (scripts/setup-host.sh installs it); without it the
# cases are KTAP SKIPs that say so. Takes a few seconds.
#
# Usage: sh selftests/lh_host/test_alert_rules.sh
# Prints KTAP; exit 1 if a case failed.

LT_DIR=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=host_lib.sh
. "$LT_DIR/host_lib.sh"
RULES_DIR=$(cd "$LT_DIR/../../contrib/prometheus" && pwd)
RULES=$RULES_DIR/latency_hist.rules.yml
RULES_TEST=$RULES_DIR/latency_hist.rules.test.yml
FLAVOUR=promtool

echo "KTAP version 1"

# alert_names - the alerts of the rules file, one a line
alert_names()
{
	sed -n 's/^ *- alert: *\([A-Za-z0-9_]*\).*/\1/p' "$RULES"
}

# alert_cases NAME - "fires" and "silent" for each alert_rule_test of the test file that names the
# alert NAME and expects it to fire or to stay silent
alert_cases()
{
	awk -v want="$1" '
		/^ *alertname:/ { name = $2; next }
		/^ *exp_alerts: *\[\] *$/ { if (name == want) print "silent"; name = ""; next }
		/^ *exp_alerts: *$/ { if (name == want) print "fires"; name = ""; next }
	' "$RULES_TEST"
}

# expr_text - the PromQL of the rules file: each expr: line's value, and the lines of an expr: | block
expr_text()
{
	awk '
		blk && match($0, /^ */) && RLENGTH > ind { print; next }
		{ blk = 0 }
		/^ *expr: *\| *$/ { blk = 1; match($0, /^ */); ind = RLENGTH; next }
		/^ *expr:/ { sub(/^ *expr: */, ""); print }
	' "$RULES"
}

if ! command -v promtool > /dev/null 2>&1; then
	for c in rules_load unit_tests_pass each_alert_fires_and_stays_silent_in_a_test \
		rules_read_only_series_lh_writes; do
		skip "$c" "promtool is missing (Debian package prometheus)"
	done
else
	promtool check rules "$RULES" > "$TMP/check.out" 2>&1 ||
		err "promtool check rules: $(head -c 600 "$TMP/check.out")"
	case_end rules_load

	# promtool resolves rule_files relative to the test file's directory
	promtool test rules "$RULES_TEST" > "$TMP/test.out" 2>&1 || {
		err "promtool test rules failed:"
		sed 's/^/#   /' "$TMP/test.out" | head -n 40
	}
	case_end unit_tests_pass

	n=0
	for a in $(alert_names); do
		n=$((n + 1))
		cases=$(alert_cases "$a")
		echo "$cases" | grep -qx fires || err "$a: no unit test in which it fires"
		echo "$cases" | grep -qx silent || err "$a: no unit test in which it stays silent"
	done
	[ "$n" -gt 0 ] || err "no alert found in $RULES"
	case_end each_alert_fires_and_stays_silent_in_a_test

	# the series of lh the rules read (latency_hist_..., not the recording rules' latency_hist:...),
	# without a histogram's _bucket/_count/_sum: each must be a name lh writes
	for m in $(expr_text | grep -o '\(^\|[^:a-z_]\)latency_hist_[a-z_]*' | sed 's/^[^l]//' |
		sed 's/_\(bucket\|count\|sum\)$//' | sort -u); do
		grep -q "$m" "$LH" || err "the rules read $m, which lh does not write"
	done
	case_end rules_read_only_series_lh_writes
fi
echo "1..$ntest"
echo "# Totals: pass:$npass fail:$nfail xfail:0 xpass:0 skip:$nskip error:0"
[ "$nfail" -eq 0 ]
