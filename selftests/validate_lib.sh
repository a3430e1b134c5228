# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC2034,SC2015,SC2046,SC3043 # sets variables for the caller; A && B || C reports; word lists; local
#
# validate_lib.sh - for the validate_*.sh tests that compare our wakeup
# samples with another tool's, sample set against sample set: the three
# checks of Documentation/validation.rst (totals within 0.5 %, >= 99 % of the
# samples paired by rank in the same or an adjacent 1 us bucket, maxima
# within 1 us) as three test cases, each also a "# table:" row for
# scripts/validate.sh. Source after lib.sh and hist_lib.sh.

# vl_table TOOL CHECK FIGURES RESULT - one row of the validation table
vl_table()
{
	lh_diag "table: $1: $2 | $3 | $4"
}

# vl_ours_cpu CPU OUT - our wakeup + wakeup/sharedprio samples of CPUx, one
# per line, sorted ("greater or equal than 10240" ones as 10240)
vl_ours_cpu()
{
	hl_samples "$LH_DIR/wakeup/CPU$1" "$LH_DIR/wakeup/sharedprio/CPU$1" >"$2"
}

# vl_rank_line FILE - samples at ranks 1, 25 %, 50 %, 75 % and the last
vl_rank_line()
{
	awk '{ v[NR] = $1 } END {
		printf "%s %s %s %s %s", v[1], v[int(NR / 4) + 0], v[int(NR / 2)], v[int(3 * NR / 4)], v[NR] }' "$1"
}

# vl_compare TOOL OURS THEIRS LOOPS - the three cases over two sorted sample
# files; TOOL names the other side in messages and table rows
vl_compare()
{
	local tool n_o n_t r d
	tool=$1
	n_o=$(wc -l <"$2")
	n_t=$(wc -l <"$3")
	lh_diag "$tool: ours at ranks 1, 25 %, 50 %, 75 %, last: $(vl_rank_line "$2")"
	lh_diag "$tool: theirs at the same ranks: $(vl_rank_line "$3")"

	lh_case_begin
	r=PASS
	if [ "$n_t" -eq 0 ] || ! awk -v a="$n_o" -v b="$n_t" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d * 1000 <= b * 5) }'; then
		r=FAIL
		lh_err "ours $n_o samples, $tool $n_t: not within 0.5 %"
	fi
	vl_table "$tool" "totals within 0.5 %" "ours $n_o, $tool $n_t (loops $4)" $r
	lh_case_end totals_agree

	# Pair by rank over the common length.
	set -- $(paste -d ' ' "$2" "$3" | awk '
		NF == 2 { n++; d = $1 - $2; if (d < 0) d = -d; if (d <= 1) near++; if (d > gap) gap = d }
		END { printf "%d %d %d\n", n, near, gap }') "$(tail -n 1 "$2")" "$(tail -n 1 "$3")"
	[ -n "$4" ] || set -- "$1" "$2" "$3" 0 "$5"
	[ -n "$5" ] || set -- "$1" "$2" "$3" "$4" 0
	lh_case_begin
	r=PASS
	[ "$1" -gt 0 ] && [ $(($2 * 100)) -ge $(($1 * 99)) ] ||
		{ r=FAIL; lh_err "$2 of $1 paired samples within 1 us: < 99 % (largest gap $3 us)"; }
	vl_table "$tool" ">= 99 % in the same or an adjacent bucket" "$2 of $1 (largest gap $3 us)" $r
	lh_case_end same_or_adjacent_bucket

	lh_case_begin
	d=$(($4 - $5))
	[ $d -lt 0 ] && d=$((-d))
	r=PASS
	[ $d -le 1 ] || { r=FAIL; lh_err "maxima ours $4 us, $tool $5 us: differ by $d us"; }
	vl_table "$tool" "maxima within 1 us" "ours $4, $tool $5 us" $r
	lh_case_end maxima_agree
}
