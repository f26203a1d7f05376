/* The frame's plan of jobs and the calling thread's job (see sched/job_plan.h). */
#include "sched/job_plan.h"

sv_job_plan sv_frame_plan;
__thread int sv_current_job = -1;

LIBTM_SAFE bool sv_in_same_job(int slot)
{
    return sv_current_job >= 0 && sv_frame_plan.job_of_player[slot] == sv_current_job;
}
