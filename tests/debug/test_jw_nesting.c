/* The writer's nesting checks (json_write.h), built here without NDEBUG whatever the build
 * type, so that each misuse below must abort. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "json/json_write.h"

Test(jw_nesting, well_nested_output_passes) {
    cbd_jw w;
    cbd_jw_init(&w);
    cbd_jw_object_open(&w);
    cbd_jw_key(&w, "a");
    cbd_jw_array_open(&w);
    cbd_jw_uint(&w, 1);
    cbd_jw_object_open(&w);
    cbd_jw_object_close(&w);
    cbd_jw_array_close(&w);
    cbd_jw_object_close(&w);
    size_t len = 0;
    char *text = cbd_jw_finish(&w, &len);
    cr_expect_str_eq(text, "{\"a\":[1,{}]}");
    free(text);
}

Test(jw_nesting, closing_an_array_as_an_object_aborts, .signal = SIGABRT) {
    cbd_jw w;
    cbd_jw_init(&w);
    cbd_jw_array_open(&w);
    cbd_jw_object_close(&w);
}

Test(jw_nesting, a_value_without_its_key_aborts, .signal = SIGABRT) {
    cbd_jw w;
    cbd_jw_init(&w);
    cbd_jw_object_open(&w);
    cbd_jw_uint(&w, 1);
}

Test(jw_nesting, a_key_inside_an_array_aborts, .signal = SIGABRT) {
    cbd_jw w;
    cbd_jw_init(&w);
    cbd_jw_array_open(&w);
    cbd_jw_key(&w, "a");
}

Test(jw_nesting, a_key_without_a_value_aborts, .signal = SIGABRT) {
    cbd_jw w;
    cbd_jw_init(&w);
    cbd_jw_object_open(&w);
    cbd_jw_key(&w, "a");
    cbd_jw_object_close(&w);
}

Test(jw_nesting, finishing_inside_an_object_aborts, .signal = SIGABRT) {
    cbd_jw w;
    cbd_jw_init(&w);
    cbd_jw_object_open(&w);
    size_t len;
    free(cbd_jw_finish(&w, &len));
}
