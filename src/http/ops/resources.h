#ifndef COMBATD_HTTP_RESOURCES_H
#define COMBATD_HTTP_RESOURCES_H

/* The GET resources the http layer serves itself: the `get` column of endpoints.h. */
#include <microhttpd.h>

typedef struct cbd_server cbd_server;
typedef struct cbd_http_request cbd_http_request;

enum MHD_Result cbd_http_get_livez(cbd_server *s, struct MHD_Connection *con,
                                   cbd_http_request *req);
enum MHD_Result cbd_http_get_readyz(cbd_server *s, struct MHD_Connection *con,
                                    cbd_http_request *req);
enum MHD_Result cbd_http_get_metrics(cbd_server *s, struct MHD_Connection *con,
                                     cbd_http_request *req);
enum MHD_Result cbd_http_get_openapi(cbd_server *s, struct MHD_Connection *con,
                                     cbd_http_request *req);
enum MHD_Result cbd_http_get_docs(cbd_server *s, struct MHD_Connection *con, cbd_http_request *req);
enum MHD_Result cbd_http_get_docs_js(cbd_server *s, struct MHD_Connection *con,
                                     cbd_http_request *req);
enum MHD_Result cbd_http_get_redoc(cbd_server *s, struct MHD_Connection *con,
                                   cbd_http_request *req);
enum MHD_Result cbd_http_get_page(cbd_server *s, struct MHD_Connection *con, cbd_http_request *req);
enum MHD_Result cbd_http_get_page_js(cbd_server *s, struct MHD_Connection *con,
                                     cbd_http_request *req);

#endif
