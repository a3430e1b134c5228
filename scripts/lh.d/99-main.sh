# SPDX-License-Identifier: GPL-2.0
#
# 99-main.sh - main, which dispatches the command; the last part, since
# its last line runs it. A part of scripts/lh: see assemble.sh.

# ------------------------------------------------------------------ main

# cmd_version - print lh's version and the loaded module's, from its sysfs
# directory; "not loaded" when it cannot be read, never an error
cmd_version()
{
	LV_MOD=
	[ ! -r "$LH_SYSMODULE/version" ] || LV_MOD=$(read_value "$LH_SYSMODULE/version" 2>/dev/null)
	echo "lh $LH_VERSION (JSON schema $LH_JSON_SCHEMA_VERSION), module ${LV_MOD:-not loaded}"
}

# main - dispatch the command
main()
{
	[ $# -gt 0 ] || { usage >&2; exit 2; }
	LH_CMD=$1
	shift
	# (-h as rtla: the word after the command, as every command's help says)
	case ${1:-} in
	-h | --help)
		help_command "$LH_CMD" && exit 0 ;;
	esac
	case $LH_CMD in
	status) cmd_status "$@" ;;
	enable) cmd_enable "$@" ;;
	disable) cmd_disable "$@" ;;
	reset) cmd_reset "$@" ;;
	pid) cmd_pid "$@" ;;
	summary) cmd_summary "$@" ;;
	explain) cmd_explain "$@" ;;
	outliers) cmd_outliers "$@" ;;
	json) cmd_json "$@" ;;
	snapshot) cmd_snapshot "$@" ;;
	compare) cmd_compare "$@" ;;
	plot) cmd_plot "$@" ;;
	prom) cmd_prom "$@" ;;
	run) cmd_run "$@" ;;
	monitor) cmd_monitor "$@" ;;
	report) cmd_report "$@" ;;
	version | --version | -V) cmd_version ;;
	help | -h | --help)
		[ $# -eq 0 ] && { usage; exit 0; }
		case $1 in
		--options) cli_rows; exit ;;
		-*) die "help: unknown option $1 (lh help --help)" ;;
		esac
		help_command "$1" || die "help: unknown command '$1'" ;;
	*) usage >&2; die "unknown command '$LH_CMD'" ;;
	esac
}

main "$@"
