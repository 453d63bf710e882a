// Pinning a benchmark thread to one CPU, so the thread-scaling runs are not perturbed by the
// scheduler moving threads between the machine's CPUs.
#define _GNU_SOURCE
#include <sched.h>
#include "CBenchSupport.h"

int cbs_pin_to_cpu(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof set, &set);
}

int cbs_cpu_count(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
    return CPU_COUNT(&set);
}
