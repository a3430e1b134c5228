// SPDX-License-Identifier: GPL-2.0
/*
 * test_explain.c - host-side unit tests of explain's replay.
 *
 * Compiles module/explain_replay.c unchanged against the shim, writes
 * event rings the way the probes of explain_ring.c do (a slot sealed by
 * its sequence number), replays a window from them and checks the record:
 * each instant of the window given to one context, nesting and NMIs taken
 * out of what they interrupted, what the ring does not reach "uncovered",
 * half-written slots skipped, every detail line kept, IRQ names copied
 * when their handler ran, events read on another clock, or on the count of
 * two resumes ago, skipped; the idle task's idle states, each with what
 * ended it, nested in its time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kernel.h>
#include <linux/string.h>

#include <latency_hist/clock.h>
#include <latency_hist/explain_priv.h>

#include "ktap.h"

/* Timer callbacks: only their addresses matter. */
static const char fn_a[1], fn_mod[1], fn_gone[1], fn_many[LH_X_TIMERS + 1];

/*
 * The kernel's symbols, as kallsyms knows them now: fn_mod is in a module
 * until the test unloads it; fn_gone's module was unloaded before.
 */
static struct {
	const void *addr;
	const char *name;
} syms[] = {
	{ fn_a, "fn_a" },
	{ fn_mod, "lh_hardirq_fn [lh_load_test]" },
};

/* sprint_symbol_no_offset - the kernel's, over syms[] */
int sprint_symbol_no_offset(char *buffer, unsigned long address)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(syms); i++) {
		if (syms[i].addr == (const void *)address)
			return sprintf(buffer, "%s", syms[i].name);
	}
	return sprintf(buffer, "0x%lx", address);
}

/* ring_new - an empty ring, as lh_x_rings_alloc() makes it */
static struct lh_x_ring *ring_new(void)
{
	struct lh_x_ring *r = calloc(1, sizeof(*r));

	if (!r)
		abort();
	return r;
}

/* ev_put - append an event as the probes do: reserve, fill, seal last */
static struct lh_x_ev *ev_put(struct lh_x_ring *r, u8 kind, s32 id, u64 ns)
{
	unsigned long n = local_inc_return(&r->head);
	struct lh_x_ev *ev = &r->ev[(n - 1) & (LH_X_RING - 1)];

	memset(ev, 0, sizeof(*ev));
	ev->ns = ns;
	ev->kind = kind;
	ev->id = id;
	ev->seq = (u32)n;
	return ev;
}

/* irq_put - a device IRQ's entry (with its handler's name) or exit */
static void irq_put(struct lh_x_ring *r, u8 kind, s32 irq, u64 ns,
		    const char *name)
{
	lh_x_copy_name(ev_put(r, kind, irq, ns)->name, name);
}

/* timer_put - an hrtimer callback's entry (with @fn) or exit */
static void timer_put(struct lh_x_ring *r, u8 kind, s32 timer, u64 ns,
		      const void *fn)
{
	ev_put(r, kind, timer, ns)->fn = fn;
}

/* nmi_put - an NMI handler that ran for @delta_ns, ending at @ns */
static void nmi_put(struct lh_x_ring *r, u64 ns, u64 delta_ns)
{
	ev_put(r, LH_XE_NMI, 0, ns)->delta_ns = delta_ns;
}

/*
 * idle_put - the idle task enters idle state @state (@name and @exit_us
 * from its driver; NULL and LH_X_NO_DRIVER without one), as
 * lh_x_probe_cpu_idle() writes it
 */
static void idle_put(struct lh_x_ring *r, s32 state, u64 ns, const char *name,
		     u32 exit_us)
{
	struct lh_x_ev *ev = ev_put(r, LH_XE_IDLE_ENTRY, state, ns);

	lh_x_copy_name(ev->name, name);
	ev->exit_us = exit_us;
}

/* idle_exit_put - the idle task leaves its idle state */
static void idle_exit_put(struct lh_x_ring *r, u64 ns)
{
	ev_put(r, LH_XE_IDLE_EXIT, -1, ns);
}

/* task_put - one side of a context switch, with the task's copy */
static void task_put(struct lh_x_ring *r, u8 kind, const struct task_struct *t,
		     u64 ns)
{
	struct lh_x_ev *ev = ev_put(r, kind, t->pid, ns);

	ev->prio = t->prio;
	memcpy(ev->comm, t->comm, TASK_COMM_LEN);
}

/* switch_put - a context switch from @prev to @next, as lh_x_probe_sched_switch() */
static void switch_put(struct lh_x_ring *r, const struct task_struct *prev,
		       const struct task_struct *next, u64 ns)
{
	task_put(r, LH_XE_SWITCH_OUT, prev, ns);
	task_put(r, LH_XE_SWITCH_IN, next, ns);
}

static struct task_struct idle = { .flags = PF_IDLE, .prio = 120, .pid = 0,
				   .comm = "swapper/0" };
static struct task_struct task_a = { .prio = 120, .pid = 100, .comm = "a" };
static struct task_struct task_b = { .prio = 49, .pid = 200, .comm = "b" };

/* find - the detail line of @kind and @id, NULL if none */
static const struct lh_x_detail *find(const struct lh_x_rec *rec, u8 kind,
				      s32 id)
{
	int i;

	for (i = 0; i < rec->nr_details; i++) {
		if (rec->d[i].kind == kind && rec->d[i].id == id)
			return &rec->d[i];
	}
	return NULL;
}

/*
 * idle_is - is detail @d an idle state line of @state (@name, "" without a
 * driver; @exit_us) that @wake_kind @wake_id (@wake_name) ended, with
 * @count and @ns?
 */
static int idle_is(const struct lh_x_rec *rec, const struct lh_x_detail *d,
		   s32 state, const char *name, u32 exit_us, u8 wake_kind,
		   s32 wake_id, const char *wake_name, u32 count, u64 ns)
{
	const struct lh_x_idle_acc *a;

	if (!d || d->kind != LH_XD_IDLE_STATE)
		return 0;
	a = &rec->idle[d->id];
	return a->state == state && !strcmp(a->name, name) &&
	       a->exit_us == exit_us && a->wake_kind == wake_kind &&
	       a->wake_id == wake_id && !strcmp(a->wake_name, wake_name) &&
	       d->count == count && d->ns == ns;
}

/* is - does detail @d exist with @count and @ns? */
static int is(const struct lh_x_detail *d, u32 count, u64 ns)
{
	return d && d->count == count && d->ns == ns;
}

/* adds_up - do the categories add up to the window? */
static int adds_up(const struct lh_x_rec *rec)
{
	u64 sum_ns = 0;
	int i;

	for (i = 0; i < LH_XC_NR; i++)
		sum_ns += rec->cat_ns[i];
	return rec->valid && sum_ns == rec->window_ns;
}

/* cat_is - category @cat's time and count */
static int cat_is(const struct lh_x_rec *rec, int cat, u64 ns, u32 count)
{
	return rec->cat_ns[cat] == ns && rec->cat_count[cat] == count;
}

/*
 * Window [1000, 11000] of task a: IRQ 30 over [2000, 5000] with a timer
 * callback over [2500, 3500] and an NMI of 200 ending at 3000 in it; then
 * softirq NET_RX over [5000, 6000] with IRQ 31 over [5200, 5400] in it; an
 * NMI of 1000 ending at 8000 in task a.
 */
static void test_nesting_and_nmi(void)
{
	struct lh_x_ring *r = ring_new();
	const struct lh_x_rec *rec = &r->scratch.rec;
	const struct lh_x_detail *d;

	switch_put(r, &idle, &task_a, 500);
	irq_put(r, LH_XE_IRQ_ENTRY, 30, 2000, "eth0");
	timer_put(r, LH_XE_TIMER_ENTRY, 7, 2500, fn_a);
	nmi_put(r, 3000, 200);
	timer_put(r, LH_XE_TIMER_EXIT, 7, 3500, NULL);
	irq_put(r, LH_XE_IRQ_EXIT, 30, 5000, NULL);
	ev_put(r, LH_XE_SOFTIRQ_ENTRY, 3, 5000);
	irq_put(r, LH_XE_IRQ_ENTRY, 31, 5200, "ahci");
	irq_put(r, LH_XE_IRQ_EXIT, 31, 5400, NULL);
	ev_put(r, LH_XE_SOFTIRQ_EXIT, 3, 6000);
	nmi_put(r, 8000, 1000);

	lh_x_replay(r, 1000, 11000, &task_a);

	check(adds_up(rec) && rec->window_ns == 10000 &&
	      cat_is(rec, LH_XC_HARDIRQ, 3000, 2) &&
	      cat_is(rec, LH_XC_SOFTIRQ, 800, 1) &&
	      cat_is(rec, LH_XC_NMI, 1200, 2) &&
	      cat_is(rec, LH_XC_THREAD, 5000, 1) &&
	      cat_is(rec, LH_XC_OTHER, 0, 0),
	      "explain replay: nested contexts and NMIs each get their own time, adding up to the window");
	d = find(rec, LH_XD_IRQ, 30);
	check(is(d, 1, 2800) && !strcmp(d->name, "eth0") &&
	      d[1].kind == LH_XD_TIMER &&
	      !strcmp(rec->timer_sym[d[1].id], "fn_a") &&
	      is(&d[1], 1, 800) && is(find(rec, LH_XD_IRQ, 31), 1, 200) &&
	      is(find(rec, LH_XD_SOFTIRQ, 3), 1, 800) &&
	      !strcmp(find(rec, LH_XD_SOFTIRQ, 3)->name, "NET_RX"),
	      "explain replay: an NMI's time leaves the IRQ and the timer callback it interrupted, a nested IRQ leaves its softirq");
	d = find(rec, LH_XD_THREAD, 100);
	check(is(d, 1, 5000) && d->prio == 120 && !strcmp(d->name, "a") &&
	      !find(rec, LH_XD_UNCOVERED, 0),
	      "explain replay: the task gets the rest of the window, less the NMI in it");
	free(r);
}

/*
 * A window that began before the oldest event the ring still holds: the
 * ring wrapped over LH_X_RING + 100 IRQs, one every 10 ns from 10000.
 */
static void test_uncovered(void)
{
	struct lh_x_ring *r = ring_new();
	const struct lh_x_rec *rec = &r->scratch.rec;
	u64 ns = 10000, oldest_ns, end_ns;
	int i;

	switch_put(r, &idle, &task_a, 9000);
	for (i = 0; i < (LH_X_RING + 100) / 2; i++) {
		irq_put(r, LH_XE_IRQ_ENTRY, 30, ns, "eth0");
		irq_put(r, LH_XE_IRQ_EXIT, 30, ns + 4, NULL);
		ns += 10;
	}
	/* the oldest slot left: an IRQ entry, LH_X_RING appends ago */
	oldest_ns = r->ev[local_read(&r->head) & (LH_X_RING - 1)].ns;
	end_ns = ns;

	lh_x_replay(r, 5000, end_ns, &task_a);

	check(adds_up(rec) && rec->window_ns == end_ns - 5000 &&
	      is(find(rec, LH_XD_UNCOVERED, 0), 0, oldest_ns - 5000) &&
	      cat_is(rec, LH_XC_OTHER, oldest_ns - 5000, 1) &&
	      cat_is(rec, LH_XC_HARDIRQ, LH_X_RING / 2 * 4, LH_X_RING / 2) &&
	      is(find(rec, LH_XD_THREAD, 100), 1,
		 end_ns - oldest_ns - LH_X_RING / 2 * 4),
	      "explain replay: what the wrapped ring no longer holds is uncovered, the rest is accounted");
	free(r);
}

/*
 * A slot reserved and zeroed but not sealed yet (the replay interrupted
 * the append): its fields, a switch to pid 999, must not be read.
 */
static void test_half_written(void)
{
	struct lh_x_ring *r = ring_new();
	const struct lh_x_rec *rec = &r->scratch.rec;
	struct lh_x_ev *ev;

	switch_put(r, &idle, &task_a, 500);
	irq_put(r, LH_XE_IRQ_ENTRY, 30, 2000, "eth0");
	ev = ev_put(r, LH_XE_SWITCH_IN, 999, 3000);
	strscpy(ev->comm, "torn", TASK_COMM_LEN);
	ev->seq = 0;
	irq_put(r, LH_XE_IRQ_EXIT, 30, 4000, NULL);

	lh_x_replay(r, 1000, 6000, &task_a);

	check(adds_up(rec) && is(find(rec, LH_XD_IRQ, 30), 1, 2000) &&
	      is(find(rec, LH_XD_THREAD, 100), 1, 3000) &&
	      !find(rec, LH_XD_THREAD, 999) && rec->nr_details == 2,
	      "explain replay: a half-written slot is skipped, not read");
	free(r);
}

/*
 * Every kind of detail line at its most: 9 IRQs (8 named and "(others)"),
 * 9 timer callbacks (8 named) in the first, the 10 softirq vectors, 8 tasks
 * (6 named and "thread-rest"), idle with 9 idle states (8 named and
 * "(others)"), and "uncovered" last.
 */
static void test_detail_overflow(void)
{
	static struct task_struct tasks[8];
	struct lh_x_ring *r = ring_new();
	const struct lh_x_rec *rec = &r->scratch.rec;
	const struct lh_x_detail *last;
	struct task_struct *prev = &idle;
	u64 ns = 2000;
	int i;

	switch_put(r, &idle, &idle, ns);
	for (i = 0; i < LH_X_IDLES + 1; i++) {
		/* 9 states, each left without an interrupt: 9 pairs */
		idle_put(r, i, ns + 10 * i, NULL, LH_X_NO_DRIVER);
		idle_exit_put(r, ns + 10 * i + 5);
	}
	ns += 100;
	for (i = 0; i < LH_X_IRQS + 1; i++) {
		irq_put(r, LH_XE_IRQ_ENTRY, 40 + i, ns, "dev");
		if (!i) {
			int t;

			for (t = 0; t < LH_X_TIMERS + 1; t++) {
				timer_put(r, LH_XE_TIMER_ENTRY, t, ns + t * 10,
					  &fn_many[t]);
				timer_put(r, LH_XE_TIMER_EXIT, t,
					  ns + t * 10 + 5, NULL);
			}
			ns += (LH_X_TIMERS + 1) * 10;
		}
		ns += 10 + i;
		irq_put(r, LH_XE_IRQ_EXIT, 40 + i, ns, NULL);
	}
	for (i = 0; i < LH_X_NR_SOFTIRQS; i++) {
		ev_put(r, LH_XE_SOFTIRQ_ENTRY, i, ns);
		ns += 20 + i;
		ev_put(r, LH_XE_SOFTIRQ_EXIT, i, ns);
	}
	for (i = 0; i < 8; i++) {
		tasks[i].pid = 101 + i;
		tasks[i].prio = 120;
		snprintf(tasks[i].comm, TASK_COMM_LEN, "task%d", i);
		switch_put(r, prev, &tasks[i], ns);
		prev = &tasks[i];
		ns += 1000 - 10 * i;
	}

	lh_x_replay(r, 1000, ns, prev);

	last = &rec->d[rec->nr_details - 1];
	check(rec->nr_details == LH_X_DETAILS &&
	      last->kind == LH_XD_UNCOVERED && last->ns == 1000,
	      "explain replay: with every detail line at its most, the record holds them all, uncovered last");
	check(adds_up(rec) && cat_is(rec, LH_XC_HARDIRQ,
				     rec->cat_ns[LH_XC_HARDIRQ], 9) &&
	      is(find(rec, LH_XD_IRQ, -1), 1, 10 + LH_X_IRQS) &&
	      !strcmp(find(rec, LH_XD_IRQ, -1)->name, "(others)") &&
	      is(find(rec, LH_XD_THREAD_REST, 2), 0, 940 + 930) &&
	      is(find(rec, LH_XD_IDLE, 0), 0, 100) &&
	      cat_is(rec, LH_XC_THREAD, rec->cat_ns[LH_XC_THREAD], 8),
	      "explain replay: the IRQs and tasks beyond the named ones are summed, and still add up");
	check(idle_is(rec, find(rec, LH_XD_IDLE_STATE, 7), 7, "",
		      LH_X_NO_DRIVER, 0, -1, "", 1, 5) &&
	      idle_is(rec, find(rec, LH_XD_IDLE_STATE, LH_X_IDLES), -1, "",
		      LH_X_NO_DRIVER, 0, -1, "", 1, 5) &&
	      find(rec, LH_XD_IDLE_STATE, LH_X_IDLES)[-1].kind ==
	      LH_XD_IDLE_STATE && find(rec, LH_XD_IDLE, 0)[1].kind ==
	      LH_XD_IDLE_STATE,
	      "explain replay: the idle states beyond the named ones are summed, under the idle line");
	free(r);
}

/*
 * The clock fell back from the cycle counter to CLOCK_MONOTONIC at 4000:
 * the events before were read on the cycle counter (LH_CLOCK_CYCLES_BIT),
 * the window on the new clock. They are on another time line: skipped.
 */
static void test_clock_fall_back(void)
{
	struct lh_x_ring *r = ring_new();
	const struct lh_x_rec *rec = &r->scratch.rec;

	switch_put(r, &idle, &task_a, LH_CLOCK_CYCLES_BIT | 500);
	irq_put(r, LH_XE_IRQ_ENTRY, 30, LH_CLOCK_CYCLES_BIT | 2000, "eth0");
	irq_put(r, LH_XE_IRQ_EXIT, 30, LH_CLOCK_CYCLES_BIT | 3000, NULL);
	switch_put(r, &task_a, &task_b, 4000);

	lh_x_replay(r, 1000, 9000, &task_b);

	check(adds_up(rec) && is(find(rec, LH_XD_UNCOVERED, 0), 0, 3000) &&
	      is(find(rec, LH_XD_THREAD, 200), 1, 5000) &&
	      !find(rec, LH_XD_IRQ, 30) && !find(rec, LH_XD_THREAD, 100),
	      "explain replay: events read on the clock before a fall back are skipped, their time uncovered");
	free(r);
}

/*
 * The driver of IRQ 30 is unloaded after its handler ran and before the
 * window is replayed: its irqaction's name is freed, here overwritten and
 * freed. The record names the IRQ as it was when its handler ran, and a
 * name longer than a slot holds is cut, not read further.
 */
static void test_irq_name_freed(void)
{
	struct lh_x_ring *r = ring_new();
	const struct lh_x_rec *rec = &r->scratch.rec;
	const struct lh_x_detail *d30, *d31;
	char *name = strdup("eth0");

	if (!name)
		abort();
	switch_put(r, &idle, &task_a, 500);
	irq_put(r, LH_XE_IRQ_ENTRY, 30, 2000, name);
	irq_put(r, LH_XE_IRQ_EXIT, 30, 3000, NULL);
	irq_put(r, LH_XE_IRQ_ENTRY, 31, 4000, "a-name-of-twenty-six-bytes");
	irq_put(r, LH_XE_IRQ_EXIT, 31, 4500, NULL);
	memset(name, 'X', strlen(name));
	free(name);

	lh_x_replay(r, 1000, 9000, &task_a);

	d30 = find(rec, LH_XD_IRQ, 30);
	d31 = find(rec, LH_XD_IRQ, 31);
	check(adds_up(rec) && is(d30, 1, 1000) && !strcmp(d30->name, "eth0") &&
	      is(d31, 1, 500) && !strcmp(d31->name, "a-name-of-twent"),
	      "explain replay: an IRQ's name is the one copied when its handler ran, not read after its driver is gone");
	free(r);
}

/*
 * Two resumes from S3 since the ring's oldest events: the generation bit
 * (clock.h) is the same as the window's, but the TSC restarted near 0 at
 * each resume. A switch to task a at 7000 and an IRQ 30 at 2000000 are of
 * that earlier count; the window [1000, 9000] of task b on the count
 * since the last resume starts at 4000. The events after the window's end
 * are skipped, the count's step back starts the replay again.
 */
static void test_two_resumes_ago(void)
{
	struct lh_x_ring *r = ring_new();
	const struct lh_x_rec *rec = &r->scratch.rec;
	const u64 m = LH_CLOCK_CYCLES_BIT;

	switch_put(r, &idle, &task_a, m | 7000);
	irq_put(r, LH_XE_IRQ_ENTRY, 30, m | 2000000, "eth0");
	irq_put(r, LH_XE_IRQ_EXIT, 30, m | 2000100, NULL);
	switch_put(r, &task_a, &task_b, m | 4000);
	irq_put(r, LH_XE_IRQ_ENTRY, 31, m | 5000, "ahci");
	irq_put(r, LH_XE_IRQ_EXIT, 31, m | 5500, NULL);

	lh_x_replay(r, m | 1000, m | 9000, &task_b);

	check(adds_up(rec) && is(find(rec, LH_XD_UNCOVERED, 0), 0, 3000) &&
	      is(find(rec, LH_XD_THREAD, 200), 1, 4500) &&
	      is(find(rec, LH_XD_IRQ, 31), 1, 500) &&
	      !find(rec, LH_XD_IRQ, 30),
	      "explain replay: events of two resumes ago, newer or older than the window, are skipped");
	free(r);
}

/*
 * An NMI that appends while the replay reads the ring: nmi_ring, and after
 * the replay's READ_ONCE() of nmi_after, nmi_count NMIs append an event at
 * nmi_ns. The slots they take are the oldest, the first the replay reads.
 */
static struct lh_x_ring *nmi_ring;
static const void *nmi_after;
static int nmi_count;
static u64 nmi_ns;

/* nmi_on_read - the shim's READ_ONCE() hook: the NMIs, once */
static void nmi_on_read(const void *addr)
{
	if (addr != nmi_after)
		return;
	nmi_after = NULL;
	while (nmi_count-- > 0)
		nmi_put(nmi_ring, nmi_ns, 50);
}

/*
 * full_ring - a full ring of LH_X_RING events: task a switched in at 500,
 * then zero-length IRQs up to 1622, before the window
 */
static struct lh_x_ring *full_ring(void)
{
	struct lh_x_ring *r = ring_new();
	int i;

	switch_put(r, &idle, &task_a, 500);
	for (i = 0; i < (LH_X_RING - 2) / 2; i++) {
		irq_put(r, LH_XE_IRQ_ENTRY, 30, 600 + i, "eth0");
		irq_put(r, LH_XE_IRQ_EXIT, 30, 600 + i, NULL);
	}
	return r;
}

/*
 * replay_with_nmis - replay [2000, 5000] of @r while @nr NMIs overwrite
 * the oldest slots right after the replay read slot @after's sequence
 */
static void replay_with_nmis(struct lh_x_ring *r, int after, int nr)
{
	nmi_ring = r;
	nmi_after = &r->ev[after].seq;
	nmi_count = nr;
	nmi_ns = 5100;
	lh_shim_read_hook = nmi_on_read;
	lh_x_replay(r, 2000, 5000, &task_a);
	lh_shim_read_hook = NULL;
}

/*
 * An NMI overwrites the oldest slot between the replay's check of its
 * sequence number and its reading of the fields: the slot must be read as
 * overwritten, not as the NMI's event (later than the window: everything
 * would turn uncovered).
 */
static void test_nmi_overwrites_slot(void)
{
	struct lh_x_ring *r = full_ring();
	const struct lh_x_rec *rec = &r->scratch.rec;

	replay_with_nmis(r, 0, 1);

	check(adds_up(rec) && is(find(rec, LH_XD_THREAD, 100), 1, 3000) &&
	      !find(rec, LH_XD_UNCOVERED, 0),
	      "explain replay: a slot an NMI overwrites while it is read is skipped, not torn");
	free(r);
}

/*
 * Two NMIs overwrite the two oldest slots, the switch to task a among them,
 * after the replay has read them: what it keeps of the switch must be its
 * own copy, not the slot (now an NMI event, with id 0, the idle task's).
 */
static void test_nmi_overwrites_task(void)
{
	struct lh_x_ring *r = full_ring();
	const struct lh_x_rec *rec = &r->scratch.rec;

	replay_with_nmis(r, 2, 2);

	check(adds_up(rec) && is(find(rec, LH_XD_THREAD, 100), 1, 3000) &&
	      !find(rec, LH_XD_IDLE, 0),
	      "explain replay: the running task is its own copy of the switch, not the slot NMIs overwrote");
	free(r);
}

/*
 * A timer callback is named when the window is replayed, as %ps names it:
 * the record keeps the name after its module is unloaded (its address,
 * looked up when the file is read, would give "0x..." or another module's
 * symbol), and one whose module was gone already is "[unloaded]", never
 * its address.
 */
static void test_timer_names(void)
{
	struct lh_x_ring *r = ring_new();
	const struct lh_x_rec *rec = &r->scratch.rec;
	const struct lh_x_detail *d;
	char buf[64];
	int i, ok = 1;

	switch_put(r, &idle, &task_a, 500);
	irq_put(r, LH_XE_IRQ_ENTRY, 30, 2000, "eth0");
	timer_put(r, LH_XE_TIMER_ENTRY, 1, 2100, fn_mod);
	timer_put(r, LH_XE_TIMER_EXIT, 1, 2300, NULL);
	timer_put(r, LH_XE_TIMER_ENTRY, 2, 2400, fn_gone);
	timer_put(r, LH_XE_TIMER_EXIT, 2, 2500, NULL);
	irq_put(r, LH_XE_IRQ_EXIT, 30, 3000, NULL);

	lh_x_replay(r, 1000, 4000, &task_a);
	syms[1].addr = NULL;	/* rmmod lh_load_test */

	d = find(rec, LH_XD_IRQ, 30);
	check(d && d[1].kind == LH_XD_TIMER && is(&d[1], 1, 200) &&
	      !strcmp(rec->timer_sym[d[1].id], "lh_hardirq_fn [lh_load_test]") &&
	      d[2].kind == LH_XD_TIMER && is(&d[2], 1, 100) &&
	      !strcmp(rec->timer_sym[d[2].id], "[unloaded]"),
	      "explain replay: timer callbacks are named at the replay, an unloaded one as [unloaded]");
	snprintf(buf, sizeof(buf), "%lx", (unsigned long)fn_gone);
	for (i = 0; i < LH_X_TIMERS; i++)
		ok &= !strstr(rec->timer_sym[i], buf);
	check(ok, "explain replay: no callback's address is kept for the file to print");
	free(r);
}

/*
 * The kernel's default idle (no cpuidle driver: hlt, which takes the
 * interrupt that ends it before the exit) in window [1000, 7500] of the
 * idle CPU: state 1 from 600, the local timer at 3000-3200 ends it at 3300;
 * state 1 again from 3400, a reschedule IPI at 7000-7100 ends it at 7150.
 */
static void test_idle_default(void)
{
	struct lh_x_ring *r = ring_new();
	const struct lh_x_rec *rec = &r->scratch.rec;
	const struct lh_x_detail *d;

	switch_put(r, &task_a, &idle, 500);
	idle_put(r, 1, 600, NULL, LH_X_NO_DRIVER);
	irq_put(r, LH_XE_VEC_ENTRY, 236, 3000, "local_timer");
	irq_put(r, LH_XE_VEC_EXIT, 236, 3200, NULL);
	idle_exit_put(r, 3300);
	idle_put(r, 1, 3400, NULL, LH_X_NO_DRIVER);
	irq_put(r, LH_XE_VEC_ENTRY, 253, 7000, "reschedule");
	irq_put(r, LH_XE_VEC_EXIT, 253, 7100, NULL);
	idle_exit_put(r, 7150);

	lh_x_replay(r, 1000, 7500, &idle);

	d = find(rec, LH_XD_IDLE, 0);
	check(adds_up(rec) && cat_is(rec, LH_XC_HARDIRQ, 300, 2) &&
	      cat_is(rec, LH_XC_OTHER, 6200, 1) && is(d, 0, 6200),
	      "explain replay: idle periods keep the window adding up, their interrupts hardirq");
	check(idle_is(rec, &d[1], 1, "", LH_X_NO_DRIVER, LH_XE_VEC_ENTRY, 236,
		      "local_timer", 1, 2000 + 100) &&
	      idle_is(rec, &d[2], 1, "", LH_X_NO_DRIVER, LH_XE_VEC_ENTRY, 253,
		      "reschedule", 1, 3600 + 50) &&
	      rec->nr_details == 5,
	      "explain replay: the default idle's periods, each named with the first interrupt after its entry, in the window");
	free(r);
}

/*
 * A cpuidle driver's states, entered with interrupts off (as MWAIT
 * states are: the interrupt that ends one runs after its exit), in window
 * [1000, 7500], with no switch in the ring to say who ran: C6 (exit
 * latency 133 us) from 600 to 3000, ended by the local timer at 3010; C1E
 * from 3400 to 6000, ended by an NMI of 100 ending at 5000; C6 from 6100
 * to 7000, left with no interrupt (need_resched seen by the monitor).
 */
static void test_idle_driver(void)
{
	struct lh_x_ring *r = ring_new();
	const struct lh_x_rec *rec = &r->scratch.rec;
	const struct lh_x_detail *d;

	idle_put(r, 3, 600, "C6", 133);
	idle_exit_put(r, 3000);
	irq_put(r, LH_XE_VEC_ENTRY, 236, 3010, "local_timer");
	irq_put(r, LH_XE_VEC_EXIT, 236, 3200, NULL);
	idle_put(r, 2, 3400, "C1E", 10);
	nmi_put(r, 5000, 100);
	idle_exit_put(r, 6000);
	idle_put(r, 3, 6100, "C6", 133);
	idle_exit_put(r, 7000);

	lh_x_replay(r, 1000, 7500, &idle);

	d = find(rec, LH_XD_IDLE, 0);
	check(adds_up(rec) && cat_is(rec, LH_XC_HARDIRQ, 190, 1) &&
	      cat_is(rec, LH_XC_NMI, 100, 1) && is(d, 0, 6210),
	      "explain replay: a driver's idle states keep the window adding up, an NMI in one is nmi's");
	check(idle_is(rec, &d[1], 3, "C6", 133, LH_XE_VEC_ENTRY, 236,
		      "local_timer", 1, 2000) &&
	      idle_is(rec, &d[2], 2, "C1E", 10, LH_XE_NMI, -1, "", 1,
		      2600 - 100) &&
	      idle_is(rec, &d[3], 3, "C6", 133, 0, -1, "", 1, 900),
	      "explain replay: driver states by name and exit latency, ended by the interrupt after the exit, an NMI, or nothing");
	free(r);
}

/*
 * Window [1000, 2200] that begins in an idle period: an earlier period,
 * over before the window, is not listed; the one the window begins in
 * counts from the window's start.
 */
static void test_idle_window_start(void)
{
	struct lh_x_ring *r = ring_new();
	const struct lh_x_rec *rec = &r->scratch.rec;
	const struct lh_x_detail *d;

	switch_put(r, &task_a, &idle, 100);
	idle_put(r, 1, 200, NULL, LH_X_NO_DRIVER);
	irq_put(r, LH_XE_VEC_ENTRY, 236, 300, "local_timer");
	irq_put(r, LH_XE_VEC_EXIT, 236, 400, NULL);
	idle_exit_put(r, 450);
	idle_put(r, 1, 500, NULL, LH_X_NO_DRIVER);
	irq_put(r, LH_XE_VEC_ENTRY, 253, 2000, "reschedule");
	irq_put(r, LH_XE_VEC_EXIT, 253, 2100, NULL);
	idle_exit_put(r, 2150);
	switch_put(r, &idle, &task_b, 2200);

	lh_x_replay(r, 1000, 2200, &idle);

	d = find(rec, LH_XD_IDLE, 0);
	check(adds_up(rec) && is(d, 0, 1100) &&
	      idle_is(rec, &d[1], 1, "", LH_X_NO_DRIVER, LH_XE_VEC_ENTRY, 253,
		      "reschedule", 1, 1000 + 50) &&
	      rec->nr_details == 3,
	      "explain replay: an idle period over before the window is not listed, the one it begins in is, from its start");
	free(r);
}

/* test_explain_run - every test of the explain replay */
void test_explain_run(void)
{
	test_nesting_and_nmi();
	test_uncovered();
	test_half_written();
	test_detail_overflow();
	test_clock_fall_back();
	test_irq_name_freed();
	test_two_resumes_ago();
	test_nmi_overwrites_slot();
	test_nmi_overwrites_task();
	test_timer_names();
	test_idle_default();
	test_idle_driver();
	test_idle_window_start();
}
