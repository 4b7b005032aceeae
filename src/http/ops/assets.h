#ifndef COMBATD_HTTP_ASSETS_H
#define COMBATD_HTTP_ASSETS_H

/* The pages embedded at build time (also NUL-terminated; implemented by assets.c, which
 * cmake/embed.cmake writes into the build directory): the playground (web/index.html, its script
 * web/page.js), the API reference (web/docs.html, its script web/docs.js) and the Redoc bundle it
 * runs (web/vendor/redoc.standalone.js); the contract is the api layer's (embedded.h). */
extern const unsigned char cbd_asset_index_html[];
extern const unsigned long cbd_asset_index_html_len;
extern const unsigned char cbd_asset_page_js[];
extern const unsigned long cbd_asset_page_js_len;
extern const unsigned char cbd_asset_docs_html[];
extern const unsigned long cbd_asset_docs_html_len;
extern const unsigned char cbd_asset_docs_js[];
extern const unsigned long cbd_asset_docs_js_len;
extern const unsigned char cbd_asset_redoc_js[];
extern const unsigned long cbd_asset_redoc_js_len;

#endif
