#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test_prom_fleet.sh - lh prom against the real parts of a Prometheus setup
#
# Two "hosts" (fixture trees in the module's formats, fixture.awk), each with
# its own prometheus-node-exporter whose textfile collector reads what
# `lh prom` wrote, and one prometheus server scraping both, all on loopback
# at free ports. The fleet-wide p99 that a dashboard shows,
#   histogram_quantile(0.99, sum by (le) (latency_hist_latency_seconds_bucket{type="wakeup"}))
# must fall in the bucket that holds the p99 of the two histograms merged
# (computed here from the samples the trees were made of). The trees are
# chosen so that this p99 is a row on a bucket bound: with the bounds one
# microsecond low (row N counted at le=N) it falls a bucket too low.
#
# Needs Debian's prometheus (prometheus, promtool) and
# prometheus-node-exporter (scripts/setup-host.sh installs them); without
# them the case is a KTAP SKIP that says which is missing. It runs in a few
# seconds: a 1 s scrape interval, temporary directories, and it kills the
# processes it started (by their pids) when it ends.
#
# Usage: sh selftests/lh_host/test_prom_fleet.sh
# Prints KTAP; exit 1 if the case failed.

LT_DIR=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=host_lib.sh
. "$LT_DIR/host_lib.sh"
FIXTURE=$LT_DIR/fixture.awk
FLEET_PIDS=
# the exit trap of host_lib.sh, after the processes this test started
# shellcheck disable=SC2154 # p is the trap's loop variable
trap 'for p in $FLEET_PIDS; do kill "$p" 2>/dev/null; done; for p in $FLEET_PIDS; do wait "$p" 2>/dev/null; done; rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM

# The buckets of the test (us) and the trees' samples (wakeup, per CPU).
BUCKETS=5,10,15,20,25,30,40,50,100,10240
SPEC_A='samples wakeup 0 10:980 30:20'
SPEC_B='samples wakeup 0 5:480
samples wakeup 1 12:500 45:10'

# listening_ports - the TCP ports something listens on here, one a line
listening_ports()
{
	cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk '
		$4 == "0A" { split($2, a, ":"); p = 0
			for (i = 1; i <= 4; i++) p = p * 16 + index("0123456789ABCDEF", substr(a[2], i, 1)) - 1
			print p }'
}

# free_port - print a TCP port from 20000 to 59999 that nothing listens on
free_port()
{
	FP_USED=$(listening_ports)
	while :; do
		FP=$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')
		FP=$((20000 + FP % 40000))
		printf '%s\n' "$FP_USED" | grep -qx "$FP" || break
	done
	echo "$FP"
}

# http_get URL - print the body of URL (curl, else wget); fails on an error
http_get()
{
	if command -v curl >/dev/null 2>&1; then
		curl -fsS --max-time 5 "$1"
	else
		wget -q -T 5 -O - "$1"
	fi
}

# wait_http URL SECONDS - true once URL answers, false after SECONDS
wait_http()
{
	WH_N=0
	while [ "$WH_N" -lt $(($2 * 10)) ]; do
		http_get "$1" >/dev/null 2>&1 && return 0
		sleep 0.1
		WH_N=$((WH_N + 1))
	done
	return 1
}

# start_exporter NAME TEXTDIR - a node exporter of the textfile collector
# only, on a free loopback port (NE_PORT); a port taken meanwhile is retried
start_exporter()
{
	for _ in 1 2 3 4 5; do
		NE_PORT=$(free_port)
		prometheus-node-exporter --web.listen-address="127.0.0.1:$NE_PORT" --collector.disable-defaults \
			--collector.textfile --collector.textfile.directory="$2" >"$TMP/$1.log" 2>&1 &
		SE_PID=$!
		FLEET_PIDS="$FLEET_PIDS $SE_PID"
		wait_http "http://127.0.0.1:$NE_PORT/metrics" 10 && return 0
		kill "$SE_PID" 2>/dev/null
	done
	err "$1: node exporter did not start: $(tail -n 3 "$TMP/$1.log")"
	return 1
}

# query EXPR - print the value of the instant query EXPR (empty: no result)
query()
{
	http_get "http://127.0.0.1:$PROM_PORT/api/v1/query?query=$(printf '%s' "$1" | od -An -tx1 -v | tr -d ' \n' | sed 's/../%&/g')" |
		sed -n 's/.*"value":\[[0-9.]*,"\([^"]*\)"\].*/\1/p'
}

# expected_bucket - print "LOW HIGH": the bucket (LOW, HIGH] us of BUCKETS
# that holds the p99 of the merged samples of the two trees: the rank
# ceil(0.99 N) falls in row V, [V, V+1) us, which is in the bucket whose
# bound is the first >= V + 1
expected_bucket()
{
	printf '%s\n%s\n' "$SPEC_A" "$SPEC_B" | awk -v buckets="$BUCKETS" '
		{ for (i = 4; i <= NF; i++) { split($i, vc, ":"); n[vc[1] + 0] += vc[2]; total += vc[2] } }
		END {
			rank = int((total * 99 + 99) / 100)
			for (v = 0; v < 10240; v++) if ((cum += n[v]) >= rank) break
			nb = split(buckets, b, ",")
			low = 0
			for (i = 1; i <= nb && b[i] + 0 < v + 1; i++) low = b[i]
			print low, b[i]
		}'
}

echo "TAP version 13"
flavour gawk 2>/dev/null || flavour mawk || flavour busybox
NAME=fleet_p99_of_two_node_exporters_is_the_merged_p99
missing=
for b in prometheus promtool prometheus-node-exporter; do
	command -v "$b" >/dev/null 2>&1 || missing="$missing $b"
done
if [ -n "$missing" ]; then
	skip "$NAME" "not installed:$missing (apt-get install prometheus prometheus-node-exporter)"
else
	for h in a b; do
		mkdir -p "$TMP/text-$h"
		if [ "$h" = a ]; then spec=$SPEC_A; else spec=$SPEC_B; fi
		printf 'cpus 2\nenable wakeup 1\n%s\n' "$spec" >"$TMP/spec-$h"
		awk -v out="$TMP/tree-$h" -f "$FIXTURE" "$TMP/spec-$h" || err "fixture.awk failed"
		LH_ROOT=$TMP/tree-$h lh prom --buckets "$BUCKETS" "$TMP/text-$h/latency_hist.prom"
		expect_rc 0 "lh prom of tree $h"
		promtool check metrics <"$TMP/text-$h/latency_hist.prom" >"$TMP/promtool.out" 2>&1 ||
			err "promtool check metrics, tree $h: $(head -c 300 "$TMP/promtool.out")"
	done
	start_exporter exporter-a "$TMP/text-a" && PORT_A=$NE_PORT
	start_exporter exporter-b "$TMP/text-b" && PORT_B=$NE_PORT
	PROM_PORT=$(free_port)
	cat >"$TMP/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: latency_hist
    static_configs:
      - targets: ['127.0.0.1:$PORT_A', '127.0.0.1:$PORT_B']
EOF
	promtool check config "$TMP/prometheus.yml" >"$TMP/promtool.out" 2>&1 ||
		err "promtool check config: $(head -c 300 "$TMP/promtool.out")"
	prometheus --config.file="$TMP/prometheus.yml" --storage.tsdb.path="$TMP/tsdb" \
		--web.listen-address="127.0.0.1:$PROM_PORT" >"$TMP/prometheus.log" 2>&1 &
	FLEET_PIDS="$FLEET_PIDS $!"
	wait_http "http://127.0.0.1:$PROM_PORT/-/ready" 30 ||
		err "prometheus did not start: $(tail -n 3 "$TMP/prometheus.log")"
	# both targets scraped, with every bucket of both (2 + 2 CPUs)
	want_series=$(( (2 + 2) * ($(echo "$BUCKETS" | tr ',' '\n' | wc -l) + 1) ))
	n=0
	while [ "$n" -lt 60 ]; do
		got=$(query 'count(latency_hist_latency_seconds_bucket{type="wakeup"})')
		[ "$got" = "$want_series" ] && break
		sleep 0.5
		n=$((n + 1))
	done
	[ "$got" = "$want_series" ] || err "prometheus has ${got:-no} wakeup bucket series, expected $want_series (targets: $(http_get "http://127.0.0.1:$PROM_PORT/api/v1/targets" | head -c 400))"
	p99=$(query 'histogram_quantile(0.99, sum by (le) (latency_hist_latency_seconds_bucket{type="wakeup"}))')
	# shellcheck disable=SC2046 # two words
	set -- $(expected_bucket)
	echo "# fleet p99: prometheus ${p99:-none} s, merged histograms: bucket ($1, $2] us"
	awk -v q="$p99" -v lo="$1" -v hi="$2" 'BEGIN { us = q * 1000000; exit !(q != "" && us > lo && us <= hi + 1e-6) }' ||
		err "fleet p99 ${p99:-none} s is not in the bucket ($1, $2] us of the merged histograms' p99"
	case_end "$NAME"
fi
echo "1..$ntest"
echo "# Totals: pass:$npass fail:$nfail xfail:0 xpass:0 skip:$nskip error:0"
[ "$nfail" -eq 0 ]
