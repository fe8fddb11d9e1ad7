/* The program 'rules': the rule scenarios of §3-§8 and §11, one file per section (rules_tests.h lists them), run
 * as one group. */
#include "rules_tests.h"

int main(void)
{
    const test_group groups[] = {
        GROUP_OF(rules_s03_setup),         GROUP_OF(rules_s04_phases),        GROUP_OF(rules_s05_prices),
        GROUP_OF(rules_s06_displacement),  GROUP_OF(rules_s07_observatory),   GROUP_OF(rules_s07_special_cards),
        GROUP_OF(rules_s08_final_scoring), GROUP_OF(rules_s11_second_edition), GROUP_OF(rules_legality),
        GROUP_OF(rules_validate),          GROUP_OF(rules_card_tables),
    };
    return run_test_groups("rules", groups, sizeof groups / sizeof groups[0]);
}
