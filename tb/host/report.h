/* report: an op's performance report (report_t, driver.h): the figures of its runs summed, and
 * printed as text or JSON (report_print_text, report_print_json, driver.h). */
#ifndef SAGEN_HOST_REPORT_H
#define SAGEN_HOST_REPORT_H

#include "driver.h"

/* Add run R's figures to SUM: the counts and cycles add up, the ideal and actual cycles give
 * SUM's utilization again, and the DRAM bandwidth and filter groups are R's (the last run's). */
void report_add(report_t *sum, const report_t *r);

#endif
