// SPDX-License-Identifier: GPL-2.0
/*
 * Compiles only where cgroup_get_from_id() exists (exported with it, from
 * 5.15 on in mainline): the per-cgroup views name a cgroup from its id at
 * read time. It returned NULL on failure before 6.1, an ERR_PTR since.
 */
#include <linux/cgroup.h>

struct cgroup *lh_probe_cgroup_get_from_id(u64 id)
{
	return cgroup_get_from_id(id);
}
