/* Short names for the Duper sides, units and attack kinds, so hand-worked tests read like
 * the rule text. */
#ifndef COMBATD_TEST_DUPER_NAMES_H
#define COMBATD_TEST_DUPER_NAMES_H

#include "combatd/duper.h"

enum { A = CBD_DUPER_ATTACK, D = CBD_DUPER_DEFENSE };
#define SOLDIER CBD_DUPER_SOLDIER
#define LARVA   CBD_DUPER_LARVA
#define TANK    CBD_DUPER_TANK
#define PLANE   CBD_DUPER_PLANE
#define FORT    CBD_DUPER_FORT
#define CENTER  CBD_DUPER_CENTER
#define CAP1    CBD_DUPER_CAPITAL_LV1
#define SUPER   CBD_DUPER_SUPERCAPITAL
#define NORMAL  CBD_DUPER_NORMAL
#define LONG    CBD_DUPER_LONG_DISTANCE

#endif
