/* The program 'api': the public API's tests, one file per subject (api_tests.h lists them), run as one group. */
#include "api_tests.h"

int main(void)
{
    const test_group groups[] = {
        GROUP_OF(api_library), GROUP_OF(api_cards),   GROUP_OF(api_actions), GROUP_OF(api_options),
        GROUP_OF(api_lifecycle), GROUP_OF(api_queries), GROUP_OF(api_apply), GROUP_OF(api_events),
        GROUP_OF(api_state),   GROUP_OF(api_allocator),
    };
    return run_test_groups("api", groups, sizeof groups / sizeof groups[0]);
}
