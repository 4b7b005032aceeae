#ifndef COMBATD_HTTP_ASSETS_H
#define COMBATD_HTTP_ASSETS_H

/* Files embedded at build time by cmake/embed.cmake (each also NUL-terminated). */
extern const unsigned char cbd_asset_openapi_yaml[];
extern const unsigned long cbd_asset_openapi_yaml_len;
extern const unsigned char cbd_asset_index_html[];
extern const unsigned long cbd_asset_index_html_len;

#endif
