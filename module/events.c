// SPDX-License-Identifier: GPL-2.0
/*
 * events.c - the latency_hist trace events and the threshold action.
 *
 * This file instantiates the events of include/latency_hist/lh_trace.h
 * (tracefs events/latency_hist/). A type's threshold (<type>/threshold, in
 * microseconds, 0 = off) turns the first sample at or above it into the
 * equivalent of cyclictest -b or rtla -T: an lh_threshold event naming the
 * type, CPU and latency, then tracing_off(), which freezes the ring buffer
 * with the lead-up to the latency in it for `trace-cmd extract`. Later
 * samples find tracing off and do nothing; writing 1 to tracing_on re-arms
 * it.
 */
#include <linux/kernel.h>

#define CREATE_TRACE_POINTS
#include <latency_hist/events.h>

/**
 * lh_threshold_hit() - a sample reached its type's threshold: stop tracing
 * @id:     the histogram
 * @cpu:    the CPU the sample was filed under
 * @lat_us: the latency
 *
 * Out of line: the probes only compare. tracing_off() takes no lock and may
 * be called from any context, NMI included.
 *
 * Context: probe context, any.
 */
void lh_threshold_hit(enum lh_hist_id id, int cpu, s64 lat_us)
{
	s64 threshold_us = READ_ONCE(lh_stop_us[id]);

	/* The threshold may have been raised or switched off since the compare. */
	if (lat_us < threshold_us)
		return;
	if (!tracing_is_on())
		return;
	trace_lh_threshold(id, cpu, lat_us, threshold_us);
	tracing_off();
}
