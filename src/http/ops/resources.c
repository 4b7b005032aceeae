/* The GET resources the http layer serves itself (the `get` column of endpoints.h). */
#include <stdatomic.h>

#include "assets.h"
#include "api/embedded.h"
#include "resources.h"
#include "http/response.h"
#include "http/router.h"
#include "http/server_internal.h"

enum MHD_Result cbd_http_get_livez(cbd_server *s, struct MHD_Connection *con,
                                   cbd_http_request *req) {
    static const char livez[] = "{\"status\":\"ok\"}";
    return cbd_http_send(&s->answers, con, &req->answer, 200, "application/json", (void *)livez,
                         sizeof livez - 1, false, NULL);
}

enum MHD_Result cbd_http_get_readyz(cbd_server *s, struct MHD_Connection *con,
                                    cbd_http_request *req) {
    static const char ready[] = "{\"status\":\"ready\"}";
    if (atomic_load(&s->draining)) {
        return cbd_http_send_problem(&s->answers, con, &req->answer, 503, NULL,
                                     "The service is draining and takes no new work.");
    }
    return cbd_http_send(&s->answers, con, &req->answer, 200, "application/json", (void *)ready,
                         sizeof ready - 1, false, NULL);
}

enum MHD_Result cbd_http_get_metrics(cbd_server *s, struct MHD_Connection *con,
                                     cbd_http_request *req) {
    size_t len = 0;
    char *text = cbdp_metrics_render(&s->metrics, &len);
    if (!text) {
        return cbd_http_send(&s->answers, con, &req->answer, 500, "application/problem+json",
                             (void *)cbd_api_oom_body, cbd_api_oom_body_len, false, NULL);
    }
    return cbd_http_send(&s->answers, con, &req->answer, 200,
                         "text/plain; version=0.0.4; charset=utf-8", text, len, true, NULL);
}

enum MHD_Result cbd_http_get_openapi(cbd_server *s, struct MHD_Connection *con,
                                     cbd_http_request *req) {
    return cbd_http_send(&s->answers, con, &req->answer, 200, "application/yaml; charset=utf-8",
                         (void *)cbd_asset_openapi_yaml, cbd_asset_openapi_yaml_len, false, NULL);
}

/* The API reference: openapi.yaml rendered by the Redoc bundle it loads from
 * /docs/redoc.standalone.js, started by /docs/docs.js (no inline script). Redoc sets its styles
 * inline and runs its search in a worker made from a blob; everything else comes from this
 * service. */
static const cbd_extra_headers docs_headers = {
    .csp = "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; "
           "worker-src blob:; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; "
           "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"};

enum MHD_Result cbd_http_get_docs(cbd_server *s, struct MHD_Connection *con,
                                  cbd_http_request *req) {
    return cbd_http_send(&s->answers, con, &req->answer, 200, "text/html; charset=utf-8",
                         (void *)cbd_asset_docs_html, cbd_asset_docs_html_len, false,
                         &docs_headers);
}

enum MHD_Result cbd_http_get_redoc(cbd_server *s, struct MHD_Connection *con,
                                   cbd_http_request *req) {
    return cbd_http_send(&s->answers, con, &req->answer, 200, "text/javascript; charset=utf-8",
                         (void *)cbd_asset_redoc_js, cbd_asset_redoc_js_len, false, &docs_headers);
}

enum MHD_Result cbd_http_get_docs_js(cbd_server *s, struct MHD_Connection *con,
                                     cbd_http_request *req) {
    return cbd_http_send(&s->answers, con, &req->answer, 200, "text/javascript; charset=utf-8",
                         (void *)cbd_asset_docs_js, cbd_asset_docs_js_len, false, &docs_headers);
}

/* The playground is self-contained: its script is /page.js (no inline script), its styles
 * inline; the browser itself refuses anything from elsewhere. */
static const cbd_extra_headers page_headers = {
    .csp = "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; "
           "img-src 'self' data:; connect-src 'self'; base-uri 'none'; "
           "form-action 'none'; frame-ancestors 'none'"};

enum MHD_Result cbd_http_get_page(cbd_server *s, struct MHD_Connection *con,
                                  cbd_http_request *req) {
    return cbd_http_send(&s->answers, con, &req->answer, 200, "text/html; charset=utf-8",
                         (void *)cbd_asset_index_html, cbd_asset_index_html_len, false,
                         &page_headers);
}

enum MHD_Result cbd_http_get_page_js(cbd_server *s, struct MHD_Connection *con,
                                     cbd_http_request *req) {
    return cbd_http_send(&s->answers, con, &req->answer, 200, "text/javascript; charset=utf-8",
                         (void *)cbd_asset_page_js, cbd_asset_page_js_len, false, &page_headers);
}
