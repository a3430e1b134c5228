// SPDX-License-Identifier: GPL-2.0
/*
 * explain_replay.c - one window replayed from its CPU's event ring
 * (explain_ring.c) into a record: where the time went.
 *
 * It runs when a sample becomes its CPU's maximum (lh_explain_file()), on
 * that CPU with interrupts off, from the ring's scratch memory: computation
 * over the ring, no allocation, no lock, no clock; only the named timer
 * callbacks are looked up in kallsyms (lh_x_timer_sym()). So it is built,
 * unchanged, into the host unit tests (selftests/unit/test_explain.c),
 * which feed it rings they write and stand in for kallsyms.
 *
 * The breakdown, in the categories of explain-CPUx:
 *   hardirq  per IRQ number or vector: count and time, with the name
 *   softirq  per vector
 *            and, nested under each IRQ, vector or softirq, the hrtimer
 *            callbacks that ran in it (a part of its time)
 *   nmi      NMI handlers
 *   thread   each task that ran: pid, priority, comm, time (the top
 *            LH_X_TOP_TASKS, the rest summed)
 *   other    the idle task, and the part of the window the ring does not
 *            cover ("uncovered")
 *            and, nested under the idle task, its idle states: index,
 *            name and exit latency, what ended each idle period (the
 *            first interrupt or NMI after its entry), count and time
 */
#include <linux/compiler.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/sort.h>
#include <linux/string.h>

#include <latency_hist/clock.h>
#include <latency_hist/explain_priv.h>

/* Names of the softirq vectors, stable since 4.x (softirq_to_name is not exported). */
static const char *const lh_x_softirq_names[LH_X_NR_SOFTIRQS] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET",
	"SCHED", "HRTIMER", "RCU",
};

/* lh_x_task_acc_of - the account of a task seen in event @ev, or NULL: rest */
static struct lh_x_task_acc *lh_x_task_acc_of(struct lh_x_scratch *s,
					      const struct lh_x_ev *ev)
{
	struct lh_x_task_acc *t;
	int i;

	for (i = 0; i < s->nr_tasks; i++) {
		t = &s->tasks[i];
		if (t->pid == ev->id && !strncmp(t->comm, ev->comm,
						 TASK_COMM_LEN))
			return t;
	}
	if (s->nr_tasks == LH_X_TASKS)
		return NULL;
	t = &s->tasks[s->nr_tasks++];
	t->pid = ev->id;
	t->prio = ev->prio;
	t->ns = 0;
	memcpy(t->comm, ev->comm, TASK_COMM_LEN);
	return t;
}

/* lh_x_task_acc_running - the account of a live task (the one at the end) */
static struct lh_x_task_acc *lh_x_task_acc_running(struct lh_x_scratch *s,
						   struct task_struct *t)
{
	struct lh_x_ev ev;

	ev.id = t->pid;
	ev.prio = t->prio;
	memcpy(ev.comm, t->comm, TASK_COMM_LEN);
	ev.comm[TASK_COMM_LEN - 1] = '\0';
	return lh_x_task_acc_of(s, &ev);
}

/* lh_x_irq_acc_of - the account of an IRQ or vector; the last one is the rest */
static struct lh_x_irq_acc *lh_x_irq_acc_of(struct lh_x_scratch *s, u8 kind,
					    s32 id, const char *name)
{
	struct lh_x_irq_acc *a;
	int i;

	for (i = 0; i < s->nr_irqs; i++) {
		a = &s->irqs[i];
		if (a->kind == kind && a->id == id)
			return a;
	}
	if (s->nr_irqs == LH_X_IRQS)
		return &s->irqs[LH_X_IRQS];
	a = &s->irqs[s->nr_irqs++];
	a->kind = kind;
	a->id = id;
	memcpy(a->name, name, LH_X_NAME);
	a->count = 0;
	a->ns = 0;
	return a;
}

/*
 * struct lh_x_idle_period - the idle period a replay is in, or has left
 * without knowing yet what ended it
 * @acc:     its state, its waker once known, count 0, and its idle task
 *           time in the window so far
 * @live:    entered, and not yet added to an account (lh_x_idle_settle())
 * @open:    between its entry and its exit
 * @waking:  no interrupt or NMI since its entry yet
 * @left_ns: its exit; U64_MAX while open
 */
struct lh_x_idle_period {
	struct lh_x_idle_acc acc;
	bool live;
	bool open;
	bool waking;
	u64 left_ns;
};

/*
 * struct lh_x_replay - the state of a replay between events
 * @task:     a copy of the switch-in event of the task running when no
 *            interrupt is (never a pointer into the ring: NMIs overwrite
 *            the slots the replay has read)
 * @task_known: @task is filled in
 * @task_acc: its account, looked up at its first time in the window
 * @unknown_ns: time given to the task before the first switch showed who
 *             it was
 * @detail_acc: the nested account (a timer callback's, an idle period's)
 *             the last lh_x_give() also fed (NULL: none), so that an
 *             NMI's time leaves it too
 * @idle:     the idle period the CPU is in or has just left
 */
struct lh_x_replay {
	struct lh_x_scratch *s;
	u64 start_ns;
	u64 end_ns;
	struct lh_x_ev task;
	bool task_known;
	u64 *task_acc;
	u64 unknown_ns;
	u64 *detail_acc;
	struct lh_x_idle_period idle;
};

/* lh_x_task_of - account of the task a switch event names; idle or rest */
static u64 *lh_x_task_of(struct lh_x_replay *rp, const struct lh_x_ev *ev)
{
	struct lh_x_task_acc *t;

	if (!ev->id)
		return &rp->s->idle_ns;	/* pid 0: the idle task */
	t = lh_x_task_acc_of(rp->s, ev);
	return t ? &t->ns : &rp->s->rest_task_ns;
}

/* lh_x_frame_acc - the account of an interrupt context, looked up now */
static u64 *lh_x_frame_acc(struct lh_x_scratch *s, struct lh_x_frame *f)
{
	struct lh_x_irq_acc *a;

	if (f->kind == LH_XE_SOFTIRQ_ENTRY) {
		f->count = &s->softirq_count[f->id];
		return &s->softirq_ns[f->id];
	}
	a = lh_x_irq_acc_of(s, f->kind == LH_XE_IRQ_ENTRY ? LH_XD_IRQ :
			    LH_XD_VECTOR, f->id, f->name);
	f->count = &a->count;
	return &a->ns;
}

/*
 * lh_x_timer_acc_of - the account of timer callback @fn in the interrupt
 * context of frame @p (whose account is looked up already), or NULL when
 * LH_X_TIMERS callbacks are named already
 */
static struct lh_x_timer_acc *lh_x_timer_acc_of(struct lh_x_scratch *s,
						const struct lh_x_frame *p,
						const void *fn)
{
	struct lh_x_timer_acc *a;
	u8 softirq = p->kind == LH_XE_SOFTIRQ_ENTRY;
	u8 parent = softirq ? p->id :
		    container_of(p->acc, struct lh_x_irq_acc, ns) - s->irqs;
	int i;

	for (i = 0; i < s->nr_timers; i++) {
		a = &s->timers[i];
		if (a->fn == fn && a->softirq == softirq && a->parent == parent)
			return a;
	}
	if (s->nr_timers == LH_X_TIMERS)
		return NULL;
	a = &s->timers[s->nr_timers++];
	a->fn = fn;
	a->softirq = softirq;
	a->parent = parent;
	a->count = 0;
	a->ns = 0;
	return a;
}

/* lh_x_frame_open - look up (and count, once) the account of frame @f */
static void lh_x_frame_open(struct lh_x_scratch *s, struct lh_x_frame *f)
{
	if (!f->acc) {
		f->acc = lh_x_frame_acc(s, f);
		(*f->count)++;
	}
}

/*
 * lh_x_give_irq - give @given ns to the innermost interrupt context; a
 * timer callback on top gets them as a detail of the interrupt context it
 * runs in, which gets them as its own. Returns that context's account.
 */
static u64 *lh_x_give_irq(struct lh_x_replay *rp, u64 given)
{
	struct lh_x_scratch *s = rp->s;
	struct lh_x_frame *f = &s->stack[s->depth - 1], *p = f;
	struct lh_x_timer_acc *t;

	while (p > s->stack && p->kind == LH_XE_TIMER_ENTRY)
		p--;
	if (p->kind == LH_XE_TIMER_ENTRY)
		return NULL;	/* a callback outside any interrupt: the task's */
	lh_x_frame_open(s, p);
	*p->acc += given;
	if (f->kind == LH_XE_TIMER_ENTRY && !f->acc) {
		t = lh_x_timer_acc_of(s, p, f->fn);
		if (t) {
			f->acc = &t->ns;
			f->count = &t->count;
			(*f->count)++;
		}
	}
	if (f->kind == LH_XE_TIMER_ENTRY && f->acc) {
		*f->acc += given;
		rp->detail_acc = f->acc;
	}
	return p->acc;
}

/*
 * lh_x_give - give [from, to] clipped to the window to the innermost
 * context; returns its account (NULL if nothing was given), *@given the ns
 */
static u64 *lh_x_give(struct lh_x_replay *rp, u64 from, u64 to, u64 *given)
{
	struct lh_x_scratch *s = rp->s;
	u64 *acc;

	from = max(from, rp->start_ns);
	to = min(to, rp->end_ns);
	*given = to > from ? to - from : 0;
	rp->detail_acc = NULL;
	if (!*given)
		return NULL;
	acc = s->depth ? lh_x_give_irq(rp, *given) : NULL;
	if (acc)
		return acc;
	if (rp->task_known) {
		if (!rp->task_acc)
			rp->task_acc = lh_x_task_of(rp, &rp->task);
		acc = rp->task_acc;
	} else {
		acc = &rp->unknown_ns;
	}
	*acc += *given;
	if (acc == &s->idle_ns && rp->idle.open) {
		/* the idle task in an idle state: a part of its time */
		rp->idle.acc.ns += *given;
		rp->detail_acc = &rp->idle.acc.ns;
	}
	return acc;
}

/* lh_x_push - an interrupt context (or a timer callback) opens */
static void lh_x_push(struct lh_x_scratch *s, const struct lh_x_ev *ev)
{
	struct lh_x_frame *f;

	if (s->depth == LH_X_DEPTH)
		return;
	f = &s->stack[s->depth++];
	f->kind = ev->kind;
	f->id = ev->id;
	if (ev->kind == LH_XE_TIMER_ENTRY) {
		f->name[0] = '\0';
		f->fn = ev->fn;
	} else {
		memcpy(f->name, ev->name, LH_X_NAME);
		f->fn = NULL;
	}
	f->acc = NULL;
	f->count = NULL;
}

/*
 * lh_x_pop - an interrupt context closes: drop it if it is the innermost;
 * timer callbacks still open above it (their exit lost) go with it
 */
static void lh_x_pop(struct lh_x_scratch *s, u8 kind, s32 id)
{
	struct lh_x_frame *f;

	while (kind != LH_XE_TIMER_ENTRY && s->depth &&
	       s->stack[s->depth - 1].kind == LH_XE_TIMER_ENTRY)
		s->depth--;
	if (!s->depth)
		return;
	f = &s->stack[s->depth - 1];
	if (f->kind == kind && f->id == id)
		s->depth--;
}

/*
 * lh_x_idle_acc_of - the account of the state and waker of @key; the last
 * one is the rest
 */
static struct lh_x_idle_acc *lh_x_idle_acc_of(struct lh_x_scratch *s,
					      const struct lh_x_idle_acc *key)
{
	struct lh_x_idle_acc *a;
	int i;

	for (i = 0; i < s->nr_idles; i++) {
		a = &s->rec.idle[i];
		if (a->state == key->state && a->exit_us == key->exit_us &&
		    !strncmp(a->name, key->name, LH_X_NAME) &&
		    a->wake_kind == key->wake_kind && a->wake_id == key->wake_id)
			return a;
	}
	if (s->nr_idles == LH_X_IDLES) {
		a = &s->rec.idle[LH_X_IDLES];
		a->state = -1;
		a->exit_us = LH_X_NO_DRIVER;
		a->wake_id = -1;
		return a;
	}
	a = &s->rec.idle[s->nr_idles++];
	*a = *key;
	a->count = 0;
	a->ns = 0;
	return a;
}

/*
 * lh_x_idle_settle - the idle period is over and what ended it known, or
 * never to be (the CPU switched or idled again, or the window ended, at
 * @now_ns: "none"): add it to its account if it overlaps the window
 */
static void lh_x_idle_settle(struct lh_x_replay *rp, u64 now_ns)
{
	struct lh_x_idle_period *p = &rp->idle;
	struct lh_x_idle_acc *a;

	if (!p->live)
		return;
	p->live = false;
	p->open = false;
	if (min(p->left_ns, now_ns) <= rp->start_ns)
		return;		/* over before the window began */
	a = lh_x_idle_acc_of(rp->s, &p->acc);
	a->count++;
	a->ns += p->acc.ns;
}

/*
 * lh_x_idle_enter - the idle task enters an idle state: a new period; and
 * the task is the idle task, if no switch told so yet (only it records
 * idle states), since the ring's first event
 */
static void lh_x_idle_enter(struct lh_x_replay *rp, const struct lh_x_ev *ev)
{
	struct lh_x_idle_period *p = &rp->idle;

	lh_x_idle_settle(rp, ev->ns);
	memset(p, 0, sizeof(*p));
	p->acc.state = ev->id;
	p->acc.exit_us = ev->exit_us;
	memcpy(p->acc.name, ev->name, LH_X_NAME);
	p->acc.wake_id = -1;
	p->live = true;
	p->open = true;
	p->waking = true;
	p->left_ns = U64_MAX;
	if (!rp->task_known) {
		rp->s->idle_ns += rp->unknown_ns;
		rp->unknown_ns = 0;
		memset(&rp->task, 0, sizeof(rp->task));	/* pid 0 */
		rp->task_known = true;
		rp->task_acc = &rp->s->idle_ns;
	}
}

/* lh_x_idle_exit - the idle task leaves its idle state */
static void lh_x_idle_exit(struct lh_x_replay *rp, const struct lh_x_ev *ev)
{
	struct lh_x_idle_period *p = &rp->idle;

	if (!p->open)
		return;
	p->open = false;
	p->left_ns = ev->ns;
	if (!p->waking)
		lh_x_idle_settle(rp, ev->ns);
}

/*
 * lh_x_idle_woken - interrupt or NMI @ev came: the first since the idle
 * entry is what ended the idle (in an idle state that services it, as hlt
 * does, it runs before the exit; in one entered with interrupts off, as
 * MWAIT states are, right after)
 */
static void lh_x_idle_woken(struct lh_x_replay *rp, const struct lh_x_ev *ev)
{
	struct lh_x_idle_period *p = &rp->idle;

	if (!p->live || !p->waking)
		return;
	p->waking = false;
	p->acc.wake_kind = ev->kind;
	if (ev->kind != LH_XE_NMI) {
		p->acc.wake_id = ev->id;
		memcpy(p->acc.wake_name, ev->name, LH_X_NAME);
	}
	if (!p->open)
		lh_x_idle_settle(rp, ev->ns);
}

/* lh_x_apply - change the replay state by one event */
static void lh_x_apply(struct lh_x_replay *rp, const struct lh_x_ev *ev)
{
	struct lh_x_scratch *s = rp->s;

	switch (ev->kind) {
	case LH_XE_IRQ_ENTRY:
	case LH_XE_VEC_ENTRY:
		lh_x_idle_woken(rp, ev);
		lh_x_push(s, ev);
		break;
	case LH_XE_TIMER_ENTRY:
		lh_x_push(s, ev);
		break;
	case LH_XE_TIMER_EXIT:
		lh_x_pop(s, LH_XE_TIMER_ENTRY, ev->id);
		break;
	case LH_XE_IRQ_EXIT:
		lh_x_pop(s, LH_XE_IRQ_ENTRY, ev->id);
		break;
	case LH_XE_VEC_EXIT:
		lh_x_pop(s, LH_XE_VEC_ENTRY, ev->id);
		break;
	case LH_XE_SOFTIRQ_ENTRY:
		if (ev->id >= 0 && ev->id < LH_X_NR_SOFTIRQS)
			lh_x_push(s, ev);
		break;
	case LH_XE_SOFTIRQ_EXIT:
		lh_x_pop(s, LH_XE_SOFTIRQ_ENTRY, ev->id);
		break;
	case LH_XE_IDLE_ENTRY:
		lh_x_idle_enter(rp, ev);
		break;
	case LH_XE_IDLE_EXIT:
		lh_x_idle_exit(rp, ev);
		break;
	case LH_XE_SWITCH_OUT:
		/* Switches happen in task context: no interrupt is open. */
		s->depth = 0;
		lh_x_idle_settle(rp, ev->ns);
		if (!rp->task_known && rp->unknown_ns) {
			/* the task that ran before the first switch */
			*lh_x_task_of(rp, ev) += rp->unknown_ns;
			rp->unknown_ns = 0;
		}
		break;
	case LH_XE_SWITCH_IN:
		s->depth = 0;
		lh_x_idle_settle(rp, ev->ns);
		rp->task = *ev;
		rp->task_known = true;
		rp->task_acc = NULL;
		break;
	}
}

/* lh_x_cmp_task - sort tasks by time, most first */
static int lh_x_cmp_task(const void *a, const void *b)
{
	const struct lh_x_task_acc *ta = a, *tb = b;

	return ta->ns < tb->ns ? 1 : ta->ns > tb->ns ? -1 : 0;
}

/* lh_x_detail - append a detail line to a record being built */
static struct lh_x_detail *lh_x_detail(struct lh_x_rec *rec, u8 kind, s32 id,
				       u32 count, u64 ns)
{
	struct lh_x_detail *d;

	if (rec->nr_details == LH_X_DETAILS)
		return NULL;
	d = &rec->d[rec->nr_details++];
	d->kind = kind;
	d->id = id;
	d->prio = 0;
	d->count = count;
	d->ns = ns;
	d->name[0] = '\0';
	return d;
}

/*
 * lh_x_timer_sym - name timer callback @fn into @dst as %ps would, now
 * that its code ran in the window, while @s->sym holds the lookup; an
 * address no symbol covers, a module unloaded since, is "[unloaded]" and
 * never printed ("[unknown]" without kallsyms)
 */
static void lh_x_timer_sym(struct lh_x_scratch *s, char *dst, const void *fn)
{
	sprint_symbol_no_offset(s->sym, (unsigned long)fn);
	if (!s->sym[0])
		strscpy(dst, "[unknown]", LH_X_SYM);
	else if (!strncmp(s->sym, "0x", 2))
		strscpy(dst, "[unloaded]", LH_X_SYM);
	else
		strscpy(dst, s->sym, LH_X_SYM);
}

/*
 * lh_x_build_timers - append the timer callbacks that ran in the IRQ or
 * vector account (@softirq 0) or softirq vector (1) @parent
 */
static void lh_x_build_timers(struct lh_x_scratch *s, struct lh_x_rec *rec,
			      u8 softirq, int parent)
{
	struct lh_x_detail *d;
	int i;

	for (i = 0; i < s->nr_timers; i++) {
		const struct lh_x_timer_acc *t = &s->timers[i];

		if (t->softirq != softirq || t->parent != parent ||
		    (!t->ns && !t->count))
			continue;
		d = lh_x_detail(rec, LH_XD_TIMER, i, t->count, t->ns);
		if (d)
			lh_x_timer_sym(s, rec->timer_sym[i], t->fn);
	}
}

/*
 * lh_x_build_idle_states - append the idle states' lines, under "idle":
 * the accounts in the record already, in the order of their first period
 */
static void lh_x_build_idle_states(struct lh_x_scratch *s,
				   struct lh_x_rec *rec)
{
	const struct lh_x_idle_acc *rest = &rec->idle[LH_X_IDLES];
	int i;

	for (i = 0; i < s->nr_idles; i++)
		lh_x_detail(rec, LH_XD_IDLE_STATE, i, rec->idle[i].count,
			    rec->idle[i].ns);
	if (rest->count)
		lh_x_detail(rec, LH_XD_IDLE_STATE, LH_X_IDLES, rest->count,
			    rest->ns);
}

/* lh_x_build - turn a replay's accounts into a record */
static void lh_x_build(struct lh_x_scratch *s, struct lh_x_rec *rec)
{
	struct lh_x_detail *d;
	u64 overflow_ns;
	int i;

	/*
	 * Room for every line below: the IRQ loop's LH_X_IRQS + 1 (with the
	 * rest), the softirq vectors, the named tasks, "thread-rest", "idle",
	 * "uncovered", the timers (each named once, under its parent) and the
	 * idle states with their rest.
	 */
	BUILD_BUG_ON(LH_X_DETAILS < (LH_X_IRQS + 1) + LH_X_NR_SOFTIRQS +
		     LH_X_TOP_TASKS + 1 + 1 + 1 + LH_X_TIMERS +
		     (LH_X_IDLES + 1));

	for (i = 0; i <= LH_X_IRQS; i++) {
		struct lh_x_irq_acc *a = &s->irqs[i];

		if (i == s->nr_irqs && i < LH_X_IRQS)
			i = LH_X_IRQS;	/* the rest */
		if (!a->ns && !a->count)
			continue;
		rec->cat_ns[LH_XC_HARDIRQ] += a->ns;
		rec->cat_count[LH_XC_HARDIRQ] += a->count;
		d = lh_x_detail(rec, i == LH_X_IRQS ? LH_XD_IRQ : a->kind,
				i == LH_X_IRQS ? -1 : a->id, a->count, a->ns);
		if (d && i < LH_X_IRQS)
			strscpy(d->name, a->name[0] ? a->name : "-", LH_X_NAME);
		else if (d)
			strscpy(d->name, "(others)", LH_X_NAME);
		lh_x_build_timers(s, rec, 0, i);
	}
	for (i = 0; i < LH_X_NR_SOFTIRQS; i++) {
		if (!s->softirq_ns[i] && !s->softirq_count[i])
			continue;
		rec->cat_ns[LH_XC_SOFTIRQ] += s->softirq_ns[i];
		rec->cat_count[LH_XC_SOFTIRQ] += s->softirq_count[i];
		d = lh_x_detail(rec, LH_XD_SOFTIRQ, i, s->softirq_count[i],
				s->softirq_ns[i]);
		if (d)
			strscpy(d->name, lh_x_softirq_names[i], LH_X_NAME);
		lh_x_build_timers(s, rec, 1, i);
	}
	rec->cat_ns[LH_XC_NMI] = s->nmi_ns;
	rec->cat_count[LH_XC_NMI] = s->nmi_count;

	overflow_ns = s->rest_task_ns;	/* tasks beyond the table */
	sort(s->tasks, s->nr_tasks, sizeof(s->tasks[0]), lh_x_cmp_task, NULL);
	for (i = 0; i < s->nr_tasks; i++) {
		struct lh_x_task_acc *t = &s->tasks[i];

		if (!t->ns)
			continue;
		rec->cat_ns[LH_XC_THREAD] += t->ns;
		rec->cat_count[LH_XC_THREAD]++;
		if (i >= LH_X_TOP_TASKS) {
			s->rest_task_ns += t->ns;
			s->nr_rest_tasks++;
			continue;
		}
		d = lh_x_detail(rec, LH_XD_THREAD, t->pid, 1, t->ns);
		if (d) {
			d->prio = t->prio;
			strscpy(d->name, t->comm, LH_X_NAME);
		}
	}
	if (overflow_ns) {
		/* the tasks beyond the table, counted as one */
		rec->cat_ns[LH_XC_THREAD] += overflow_ns;
		rec->cat_count[LH_XC_THREAD]++;
		s->nr_rest_tasks++;
	}
	if (s->nr_rest_tasks)
		lh_x_detail(rec, LH_XD_THREAD_REST, s->nr_rest_tasks, 0,
			    s->rest_task_ns);

	rec->cat_ns[LH_XC_OTHER] = s->idle_ns + s->uncovered_ns;
	if (s->idle_ns) {
		rec->cat_count[LH_XC_OTHER]++;
		lh_x_detail(rec, LH_XD_IDLE, 0, 0, s->idle_ns);
		lh_x_build_idle_states(s, rec);
	}
	if (s->uncovered_ns) {
		rec->cat_count[LH_XC_OTHER]++;
		lh_x_detail(rec, LH_XD_UNCOVERED, 0, 0, s->uncovered_ns);
	}
}

/*
 * lh_x_read_slot - copy the event of append @n into @ev; false if its slot
 * is half written, or was overwritten before or while it was copied
 *
 * A slot's sequence number is written last (lh_x_seal()), so a replay that
 * interrupted an append in progress finds it half written. An NMI may
 * append while the replay runs, into the oldest slot, the first the replay
 * reads: so, as a seqcount reader, copy the slot between two reads of its
 * sequence number, and read only the copy. The writers are this CPU's own
 * NMIs, which see and keep its program order: compiler barriers suffice.
 */
static bool lh_x_read_slot(const struct lh_x_ring *r, unsigned long n,
			   struct lh_x_ev *ev)
{
	const struct lh_x_ev *slot = &r->ev[n & (LH_X_RING - 1)];

	if (READ_ONCE(slot->seq) != (u32)(n + 1))
		return false;
	barrier();
	*ev = *slot;
	barrier();
	return READ_ONCE(slot->seq) == (u32)(n + 1);
}

/*
 * lh_x_replay_begin - @rp and @s as before the first event of a replay of
 * [start_ns, end_ns]
 */
static void lh_x_replay_begin(struct lh_x_replay *rp, struct lh_x_scratch *s,
			      u64 start_ns, u64 end_ns)
{
	memset(s, 0, sizeof(*s));
	*rp = (struct lh_x_replay){ .s = s, .start_ns = start_ns,
				    .end_ns = end_ns };
}

/*
 * lh_x_replay - break [start_ns, end_ns] down from this CPU's ring into
 * @r->scratch.rec; @running is the task on the CPU at @end_ns
 *
 * The parts add up to the window by construction: each instant of
 * [start, end] is given to exactly one of them, the innermost context
 * running then (an NMI's time is taken out of what it interrupted). An
 * interrupt still running when the sample is filed (a late timer is filed
 * from inside the timer interrupt) counts up to the filing instant. What
 * the ring does not reach back to (the window began before the oldest
 * event the ring still holds, or before explain was turned on) is
 * "uncovered". Events read on another clock than the window, before a
 * fall back of clock.h, or in another generation of the cycle counter
 * (before a rescale or a resume from S3 or hibernation), are skipped, and
 * so are events stamped after the window's end. One bit tells generations
 * apart, so the events of two resumes ago look like the window's: the
 * replay starts again at an event stamped before the first one it took.
 * Within a generation the ring steps back in time only where an NMI
 * appended between another event's clock read and its append; starting
 * again there loses that NMI, at the oldest end of the ring.
 *
 * On PREEMPT_RT, device interrupt handlers are threads (their time is the
 * thread's) and softirqs run in task context: a softirq preempted by a
 * switch ends there for the replay, and the rest of it counts as the time
 * of the task that runs it.
 *
 * Context: on the ring's CPU, interrupts off (NMIs may still append);
 * notrace, as lh_explain_file(), which calls it from probe context.
 */
void notrace lh_x_replay(struct lh_x_ring *r, u64 start_ns, u64 end_ns,
			 struct task_struct *running)
{
	struct lh_x_scratch *s = &r->scratch;
	struct lh_x_replay rp;
	unsigned long head = local_read(&r->head), n;
	u64 t_prev = end_ns, given, covered_from = end_ns;
	bool first = true;
	struct lh_x_ev ev;
	u64 *acc;

	lh_x_replay_begin(&rp, s, start_ns, end_ns);
	n = head > LH_X_RING ? head - LH_X_RING : 0;
	for (; n < head; n++) {
		if (!lh_x_read_slot(r, n, &ev))
			continue;	/* half written, or overwritten */
		if (lh_clock_differs(ev.ns, end_ns))
			continue;	/* another clock, or generation */
		if (ev.ns > end_ns)
			continue;	/* after the window, or two resumes ago */
		if (!first && ev.ns < covered_from) {
			/* back before the first event taken: two resumes ago */
			lh_x_replay_begin(&rp, s, start_ns, end_ns);
			first = true;
		}
		if (first) {
			first = false;
			covered_from = ev.ns;
			t_prev = ev.ns;
		}
		if (ev.ns > t_prev) {
			acc = lh_x_give(&rp, t_prev, ev.ns, &given);
			t_prev = ev.ns;
		} else {
			acc = NULL;	/* the clock read after a nested event */
			given = 0;
		}
		if (ev.kind == LH_XE_NMI) {
			/* the NMI ended at ev.ns: its time is the end of @given */
			u64 nmi_ns = acc ? min(ev.delta_ns, given) : 0;

			if (nmi_ns) {
				*acc -= nmi_ns;
				if (rp.detail_acc)
					*rp.detail_acc -= nmi_ns;
				s->nmi_ns += nmi_ns;
			}
			if (ev.ns >= start_ns)
				s->nmi_count++;
			lh_x_idle_woken(&rp, &ev);
			continue;
		}
		lh_x_apply(&rp, &ev);
	}
	if (covered_from > start_ns) {
		/* what the ring does not reach back to: state unknown */
		s->uncovered_ns = min(covered_from, end_ns) - start_ns;
	}
	lh_x_give(&rp, t_prev, end_ns, &given);
	lh_x_idle_settle(&rp, end_ns);
	if (rp.unknown_ns) {
		/* no switch since: the task running at the end ran throughout */
		struct lh_x_task_acc *t = is_idle_task(running) ? NULL :
					  lh_x_task_acc_running(s, running);

		acc = is_idle_task(running) ? &s->idle_ns :
		      t ? &t->ns : &s->rest_task_ns;
		*acc += rp.unknown_ns;
	}
	s->rec.valid = true;
	s->rec.end_ns = end_ns;
	s->rec.window_ns = end_ns - start_ns;
	lh_x_build(s, &s->rec);
}
