#ifndef COMBATD_CORE_WARAPP_SIM_INTERNAL_H
#define COMBATD_CORE_WARAPP_SIM_INTERNAL_H

/* What the seeded battles (warapp_simulate.c) share with their plans (warapp_sim_plan.c). */
#include <stdint.h>

#include "combatd/warapp_simulate.h"

/*
 * W19, W20: fills r's outcome, `mutual` and dead units from its kills, each side's damage dealt,
 * against `defenders` armies beside the plan's defending units.
 */
void cbd_sim_plan_resolve_units(const cbd_sim_plan *plan, uint64_t defenders, cbd_sim_record *r);

#endif
