// SPDX-License-Identifier: GPL-2.0-or-later
// Who runs a job over which share (see job_plan.h).
#include "run/job_plan.h"

void job_plan(struct job_plan *p, const struct job_plan_in *in)
{
	size_t online = 0, nout = 0;

	for (size_t id = 0; id < in->ncpus; id++)
		online += in->online[id];
	p->nids = 0;
	if (in->parallel && online > 1)
		nout = plan_shares(in->r, in->n, online, in->pass - 1, in->scratch, in->cap, p->share);
	if (nout == 0) {
		p->ranges = in->r;
		p->share[0] = (struct plan_share){ 0, in->n };
		p->ids[p->nids++] = 0;
		return;
	}
	p->ranges = in->scratch;
	// plan_shares numbered the shares by rank among the CPUs online: move
	// each to its CPU's number, from the top, where no rank exceeds its
	// number, so none is overwritten before it is moved.
	for (size_t id = in->ncpus, rank = online; id-- > 0;)
		if (in->online[id])
			p->share[id] = p->share[--rank];
	for (unsigned id = 0; id < in->ncpus; id++)
		if (in->online[id] && p->share[id].n)
			p->ids[p->nids++] = id;
}

// The split ranges lie in address order, so a share's first range orders
// the shares; rotation changes only which CPU has which.
unsigned job_plan_place(const struct job_plan *p, unsigned id)
{
	unsigned place = 0;

	for (size_t i = 0; i < p->nids; i++)
		place += p->share[p->ids[i]].first < p->share[id].first;
	return place;
}
